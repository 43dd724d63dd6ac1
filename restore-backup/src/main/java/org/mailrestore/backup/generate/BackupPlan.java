package org.mailrestore.backup.generate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import org.mailrestore.mail.GranteeType;
import org.mailrestore.mail.SystemFolder;

/**
 * The skeleton of a generated backup, decided before any item is written: domains, accounts, their
 * folder trees and tags, and who shares what with whom. Mountpoints need the owner's folder ids, so
 * the whole skeleton exists before accounts are generated in parallel.
 */
record BackupPlan(List<String> domains, List<AccountPlan> accounts, List<SharePlan> shares) {

  private static final String[] DOMAIN_NAMES = {
    "acme.example",
    "globex.example",
    "initech.example",
    "umbrella.example",
    "hooli.example",
    "vandelay.example",
    "wonka.example",
    "stark.example"
  };

  record FolderPlan(int id, int parentId, String name, String view, int color, String query) {}

  record AccountPlan(
      int index,
      String id,
      String name,
      String domain,
      String cos,
      boolean system,
      List<FolderPlan> folders,
      List<String> tags,
      long seed) {

    List<FolderPlan> messageFolders() {
      return folders.stream().filter(f -> "message".equals(f.view()) && f.query() == null).toList();
    }
  }

  /** A grant by {@code owner} on one of its folders; for {@code usr} grants also a mountpoint. */
  record SharePlan(
      int ownerIndex,
      int folderId,
      GranteeType granteeType,
      int granteeIndex,
      String granteeName,
      String rights) {}

  static BackupPlan create(GeneratorSpec spec) {
    SplittableRandom random = new SplittableRandom(spec.seed());
    List<String> domains = new ArrayList<>();
    for (int d = 0; d < spec.domains(); d++) {
      domains.add(
          d < DOMAIN_NAMES.length
              ? DOMAIN_NAMES[d]
              : "d" + d + "." + DOMAIN_NAMES[d % DOMAIN_NAMES.length]);
    }
    List<AccountPlan> accounts = new ArrayList<>();
    int total = spec.accounts() + spec.systemAccounts();
    for (int i = 0; i < total; i++) {
      boolean system = i >= spec.accounts();
      String domain = domains.get(i % domains.size());
      String local =
          system
              ? (i % 2 == 0 ? "galsync" : "spam") + "." + i
              : Words.firstName(i) + "." + String.format(Locale.ROOT, "%04d", i);
      UUID id =
          new UUID(
              random.nextLong() & ~0xF000L | 0x4000L,
              random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L);
      long accountSeed = random.nextLong();
      SplittableRandom accountRandom = new SplittableRandom(accountSeed);
      List<FolderPlan> folders = system ? systemFolders() : folders(spec, accountRandom);
      List<String> tags = system ? List.of() : tags(accountRandom);
      accounts.add(
          new AccountPlan(
              i,
              id.toString(),
              local + "@" + domain,
              domain,
              i % 5 == 0 ? "premium" : "default",
              system,
              folders,
              tags,
              accountRandom.nextLong()));
    }
    return new BackupPlan(domains, accounts, spec.shares() ? shares(random, accounts) : List.of());
  }

  /** The list every domain has: all its people. */
  static String listAddress(String domain) {
    return "all@" + domain;
  }

  private static List<FolderPlan> systemFolders() {
    List<FolderPlan> folders = new ArrayList<>();
    for (SystemFolder f : SystemFolder.values()) {
      if (f.parentId() == SystemFolder.USER_ROOT.id() || f == SystemFolder.USER_ROOT) {
        folders.add(new FolderPlan(f.id(), f.parentId(), f.folderName(), f.view(), -1, null));
      }
    }
    return folders;
  }

  private static List<FolderPlan> folders(GeneratorSpec spec, SplittableRandom random) {
    List<FolderPlan> folders = systemFolders();
    List<FolderPlan> user = new ArrayList<>();
    Set<String> taken = new HashSet<>();
    int nextId = SystemFolder.FIRST_USER_ID;
    int[] depthOf = new int[spec.foldersPerAccount() + 1];
    for (int n = 0; n < spec.foldersPerAccount(); n++) {
      int parent;
      int depth;
      if (user.isEmpty() || random.nextInt(3) == 0) {
        parent = random.nextBoolean() ? SystemFolder.INBOX.id() : SystemFolder.USER_ROOT.id();
        depth = 1;
      } else {
        int pick = random.nextInt(user.size());
        if (depthOf[pick] >= spec.maxFolderDepth()) {
          parent = SystemFolder.USER_ROOT.id();
          depth = 1;
        } else {
          parent = user.get(pick).id();
          depth = depthOf[pick] + 1;
        }
      }
      String base = Words.folderWord(random);
      String name = base;
      for (int k = 2; !taken.add(parent + "/" + name); k++) {
        name = base + " " + k;
      }
      boolean search = random.nextInt(15) == 0;
      FolderPlan folder =
          new FolderPlan(
              nextId++,
              parent,
              name,
              "message",
              random.nextInt(4) == 0 ? random.nextInt(10) : -1,
              search ? "is:unread " + name.toLowerCase(Locale.ROOT) : null);
      depthOf[user.size()] = depth;
      user.add(folder);
    }
    folders.addAll(user);
    return folders;
  }

  private static List<String> tags(SplittableRandom random) {
    int count = random.nextInt(Math.min(6, Words.tagWordCount()));
    int offset = random.nextInt(Words.tagWordCount());
    List<String> tags = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      tags.add(Words.tagWord(offset + i));
    }
    return tags;
  }

  private static List<SharePlan> shares(SplittableRandom random, List<AccountPlan> accounts) {
    List<SharePlan> shares = new ArrayList<>();
    List<AccountPlan> people = accounts.stream().filter(a -> !a.system()).toList();
    if (people.size() < 2) {
      return shares;
    }
    for (AccountPlan owner : people) {
      List<FolderPlan> shareable =
          owner.messageFolders().stream()
              .filter(f -> f.id() >= SystemFolder.FIRST_USER_ID)
              .toList();
      if (shareable.isEmpty()) {
        continue;
      }
      // About a third of people share a folder with a colleague, who mounts it.
      if (random.nextInt(3) == 0) {
        AccountPlan grantee = people.get(random.nextInt(people.size()));
        if (grantee.index() != owner.index()) {
          FolderPlan folder = shareable.get(random.nextInt(shareable.size()));
          shares.add(
              new SharePlan(
                  owner.index(),
                  folder.id(),
                  GranteeType.USER,
                  grantee.index(),
                  grantee.name(),
                  random.nextBoolean() ? "r" : "rwidx"));
        }
      }
      // Some share their calendar with the whole domain, a few a folder with everyone.
      if (random.nextInt(8) == 0) {
        shares.add(
            new SharePlan(
                owner.index(),
                SystemFolder.CALENDAR.id(),
                GranteeType.DOMAIN,
                -1,
                owner.domain(),
                "r"));
      }
      if (random.nextInt(12) == 0) {
        FolderPlan folder = shareable.get(random.nextInt(shareable.size()));
        shares.add(
            new SharePlan(
                owner.index(),
                folder.id(),
                GranteeType.GROUP,
                -1,
                listAddress(owner.domain()),
                "r"));
      }
      if (random.nextInt(20) == 0) {
        FolderPlan folder = shareable.get(random.nextInt(shareable.size()));
        shares.add(new SharePlan(owner.index(), folder.id(), GranteeType.PUBLIC, -1, null, "r"));
      }
    }
    return shares;
  }
}
