package org.mailrestore.restore;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.blob.LocalBlobVolume;
import org.mailrestore.mailstore.MailstoreSchema;
import org.mailrestore.mailstore.VolumeStore;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;

/** A migrated test database, a local volume and an engine over them. */
final class RestoreFixture implements AutoCloseable {

  final TestDatabase database;
  final LocalBlobVolume volume;
  final RestoreTarget target;
  final RestoreEngine engine;
  final RestoreMetrics metrics = RestoreMetrics.inMemory();

  RestoreFixture(Path volumeDir) throws SQLException {
    database = TestMariaDb.createDatabase();
    MailstoreSchema.migrate(database.dataSource());
    volume = new LocalBlobVolume(volumeDir);
    int volumeId =
        new VolumeStore(database.dataSource())
            .register("default", "local", volumeDir.toString(), "none", 0);
    target = new RestoreTarget(database.dataSource(), volume, volumeId);
    engine =
        new RestoreEngine(
            new OperationStore(database.dataSource()),
            target,
            new LocalBackupOpener(),
            metrics,
            "test-instance",
            RestoreEngine.DEFAULT_LEASE_SECONDS);
  }

  OperationSummary restore(RestoreRequest request) throws SQLException {
    return engine.run(engine.submit(request, null));
  }

  VerifyReport verify(Path backup, Verifier.Options options) throws SQLException, IOException {
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      return new Verifier(database.dataSource(), Map.of(target.volumeId(), volume))
          .verify(reader, options);
    }
  }

  @Override
  public void close() {
    database.close();
  }
}
