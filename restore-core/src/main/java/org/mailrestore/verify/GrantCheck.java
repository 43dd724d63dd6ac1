package org.mailrestore.verify;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.mailrestore.destination.RestoredStore.RestoredAccount;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Parsed;

/** An account's grants: each source grant, its folder and grantee translated into the target's. */
final class GrantCheck {

  private final VerifyRun run;
  private final Account account;
  private final String name;
  private final RestoredAccount target;
  private final Map<Integer, Integer> folderMap;

  GrantCheck(
      VerifyRun run,
      Account account,
      String name,
      RestoredAccount target,
      Map<Integer, Integer> folderMap) {
    this.run = run;
    this.account = account;
    this.name = name;
    this.target = target;
    this.folderMap = folderMap;
  }

  void run() throws SQLException, IOException {
    if (!(run.source.grants(account.id())
        instanceof Parsed.Ok<List<Grant>>(List<Grant> grants, String location))) {
      run.differ("account " + name + ": shares cannot be read from the backup");
      return;
    }
    Set<String> expected = new TreeSet<>();
    for (Grant g : grants) {
      String grantee =
          switch (g.granteeType()) {
            case USER -> {
              RestoredAccount t = run.targets.get(g.granteeId());
              yield t == null ? g.granteeId() : t.ref().id();
            }
            case ALL_AUTHENTICATED, PUBLIC -> "";
            default -> g.granteeId();
          };
      Integer folder = folderMap.get(g.folderId());
      Optional<Grant> kept =
          folder == null
              ? Optional.of(g)
              : run.store.expected(
                  target.ref(),
                  new Grant(folder, g.granteeType(), grantee, g.granteeName(), g.rights()));
      kept.ifPresent(
          k -> expected.add(key(folder, k.granteeType().wireName(), grantee, k.rights())));
    }
    Set<String> actual = new TreeSet<>();
    for (Grant g : run.store.grants(target.ref())) {
      actual.add(key(g.folderId(), g.granteeType().wireName(), g.granteeId(), g.rights()));
    }
    if (!expected.equals(actual)) {
      Set<String> missing = new TreeSet<>(expected);
      missing.removeAll(actual);
      Set<String> extra = new TreeSet<>(actual);
      extra.removeAll(expected);
      run.differ(
          "account " + name + ": grants differ; missing " + missing + ", unexpected " + extra);
    }
  }

  private static String key(Integer folder, String type, String grantee, String rights) {
    return folder + "/" + type + "/" + grantee + "/" + rights;
  }
}
