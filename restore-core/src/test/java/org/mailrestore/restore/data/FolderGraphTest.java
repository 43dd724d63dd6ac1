package org.mailrestore.restore.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mailrestore.destination.FolderBatch.Parent;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.restore.data.FolderGraph.Container;
import org.mailrestore.restore.data.FolderGraph.Issue;
import org.mailrestore.restore.data.FolderGraph.PlannedFolder;

class FolderGraphTest {

  static Container folder(int id, int parent, String name) {
    return new Container(id, ItemType.FOLDER, state(parent, name));
  }

  static Revision state(int parent, String name) {
    return Revision.builder(1, 0).folder(parent).name(name).view("message").build();
  }

  static List<Integer> order(FolderGraph.Plan plan) {
    return plan.folders().stream().map(p -> p.container().oldId()).toList();
  }

  static void assertParentsFirst(FolderGraph.Plan plan) {
    List<Integer> seen = new ArrayList<>();
    for (PlannedFolder f : plan.folders()) {
      if (f.parent() instanceof Parent.Planned(int parent)) {
        assertThat(seen)
            .as("parent of %d placed before it", f.container().oldId())
            .contains(parent);
      }
      seen.add(f.container().oldId());
    }
  }

  @Test
  void parentsComeBeforeChildrenWhateverTheInputOrder() {
    FolderGraph.Plan plan =
        FolderGraph.plan(
            List.of(
                folder(260, 259, "c"),
                folder(259, 258, "b"),
                folder(258, 2, "a"),
                folder(2, 1, "Inbox")),
            Map.of(),
            Map.of());
    assertThat(order(plan)).containsExactly(258, 259, 260);
    assertThat(plan.issues()).isEmpty();
    assertThat(plan.needsRecoveryFolder()).isFalse();
    assertThat(plan.folders().get(0).parent()).isEqualTo(new Parent.System(2));
  }

  @Test
  void orphansAndMountpointParentsGoToTheRecoveryFolder() {
    Container mount =
        new Container(
            300,
            ItemType.MOUNTPOINT,
            Revision.builder(1, 0)
                .folder(1)
                .name("shared")
                .view("message")
                .mount(new Revision.MountTarget("x", 257))
                .build());
    FolderGraph.Plan plan =
        FolderGraph.plan(
            List.of(folder(256, 999, "lost"), mount, folder(301, 300, "under mount")),
            Map.of(1, Set.of("recovered items")),
            Map.of());
    assertThat(plan.needsRecoveryFolder()).isTrue();
    assertThat(plan.recoveryFolderName()).isEqualTo("Recovered Items (2)");
    assertThat(plan.issues())
        .extracting(Issue::oldId, Issue::kind)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(256, Issue.Kind.ORPHAN),
            org.assertj.core.groups.Tuple.tuple(301, Issue.Kind.ORPHAN));
    assertThat(plan.folders())
        .filteredOn(f -> f.container().oldId() == 256)
        .singleElement()
        .satisfies(f -> assertThat(f.parent()).isInstanceOf(Parent.Recovery.class));
  }

  @Test
  void cyclesAreBrokenAtTheirSmallestId() {
    FolderGraph.Plan plan =
        FolderGraph.plan(
            List.of(
                folder(300, 302, "a"),
                folder(301, 300, "b"),
                folder(302, 301, "c"),
                folder(303, 303, "self")),
            Map.of(),
            Map.of());
    assertThat(plan.issues())
        .extracting(Issue::oldId, Issue::kind)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(300, Issue.Kind.CYCLE),
            org.assertj.core.groups.Tuple.tuple(303, Issue.Kind.CYCLE));
    assertThat(order(plan)).containsExactly(300, 303, 301, 302);
    assertParentsFirst(plan);
  }

  @Test
  void duplicateNamesAreRenamedInIdOrderCaseInsensitively() {
    FolderGraph.Plan plan =
        FolderGraph.plan(
            List.of(
                folder(258, 2, "Work"),
                folder(257, 2, "work"),
                folder(259, 2, "WORK"),
                folder(260, 2, "Projects")),
            Map.of(2, Set.of("projects")),
            Map.of());
    Map<Integer, String> names = new HashMap<>();
    plan.folders().forEach(f -> names.put(f.container().oldId(), f.name()));
    assertThat(names)
        .containsEntry(257, "work")
        .containsEntry(258, "Work (2)")
        .containsEntry(259, "WORK (3)")
        .containsEntry(260, "Projects (2)");
    assertThat(plan.issues()).hasSize(3).allMatch(i -> i.kind() == Issue.Kind.DUPLICATE_NAME);
  }

  @Test
  void foldersRestoredEarlierKeepTheirNamesAndNewOnesAvoidThem() {
    FolderGraph.Plan plan =
        FolderGraph.plan(
            List.of(folder(257, 2, "Work"), folder(258, 2, "Work"), folder(259, 257, "Sub")),
            Map.of(2, Set.of("work", "work (2)")),
            Map.of(257, 5000, 258, 5001));
    assertThat(plan.folders()).allMatch(f -> f.alreadyRestored() == (f.container().oldId() != 259));
    assertThat(plan.issues()).isEmpty();
  }

  @Test
  void tenThousandLevelsDoNotOverflowTheStack() {
    List<Container> deep = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      deep.add(folder(256 + i, i == 0 ? 1 : 255 + i, "level " + i));
    }
    java.util.Collections.reverse(deep);
    FolderGraph.Plan plan = FolderGraph.plan(deep, Map.of(), Map.of());
    assertThat(plan.folders()).hasSize(10_000);
    assertThat(plan.folders().get(9_999).container().oldId()).isEqualTo(256 + 9_999);
    assertParentsFirst(plan);
    // A 10,000-long cycle too.
    List<Container> ring = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      ring.add(folder(256 + i, 256 + (i + 1) % 10_000, "r" + i));
    }
    FolderGraph.Plan ringPlan = FolderGraph.plan(ring, Map.of(), Map.of());
    assertThat(ringPlan.issues())
        .singleElement()
        .satisfies(i -> assertThat(i.oldId()).isEqualTo(256));
    assertParentsFirst(ringPlan);
  }

  @Test
  void systemFoldersAreNotCreated() {
    FolderGraph.Plan plan =
        FolderGraph.plan(
            List.of(folder(1, 11, "USER_ROOT"), folder(2, 1, "Posteingang"), folder(300, 2, "x")),
            Map.of(),
            Map.of());
    assertThat(order(plan)).containsExactly(300);
  }
}
