package org.mailrestore.zimbra;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.SourceProblem;

/**
 * One account's archive: planned by a first pass (folders, tags, shares; bodies passed over), its
 * content read by a second pass each time its items are asked for. Holds the plan, never content.
 */
final class AccountArchive {

  private final ArchiveFile file;
  private final ZimbraIds ids;
  private final long maxEntryBytes;
  private ArchivePlan plan;
  private volatile Map<String, Integer> leftOut = ArchiveItems.newCounts();

  AccountArchive(ArchiveFile file, ZimbraIds ids, long maxEntryBytes) {
    this.file = file;
    this.ids = ids;
    this.maxEntryBytes = maxEntryBytes;
  }

  ArchiveFile file() {
    return file;
  }

  synchronized ArchivePlan plan() throws IOException {
    if (plan == null) {
      try (ArchiveRecords records = file.records()) {
        plan = ArchivePlan.scan(file.name(), records, ids);
      }
    }
    return plan;
  }

  ItemStream items(Set<ItemType> types) throws IOException {
    ArchivePlan p = plan();
    boolean content = types.stream().anyMatch(t -> !t.isContainer());
    Map<String, Integer> counts = leftOut;
    if (content) {
      counts = ArchiveItems.newCounts();
      leftOut = counts; // the last pass over the content says what was left out
    }
    return new ArchiveItems(p, content ? file.records() : null, maxEntryBytes, types, counts);
  }

  List<Grant> grants() throws IOException {
    return plan().containersMapper().grants();
  }

  /** What could not be read, and what was left out on purpose, with counts. */
  List<SourceProblem> problems() {
    ArchivePlan p;
    synchronized (this) {
      p = plan;
    }
    List<SourceProblem> problems = new ArrayList<>();
    if (p == null) {
      return problems;
    }
    problems.addAll(p.problems());
    p.containersMapper().notCarried().forEach((what, n) -> problems.add(leftOut(what, n)));
    leftOut.forEach((what, n) -> problems.add(leftOut(what, n)));
    return problems;
  }

  private SourceProblem leftOut(String what, int count) {
    return SourceProblem.notCarried(
        file.name(), count + " " + what + " in the archive: not restored");
  }
}
