package org.mailrestore.bench;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobLayout;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.pack.PackedBlobVolume;
import org.mailrestore.blob.s3.S3BlobSource;
import org.mailrestore.blob.s3.S3BlobVolume;
import org.mailrestore.blob.s3.S3Clients;
import org.mailrestore.blob.s3.S3Location;
import org.mailrestore.blob.s3.S3PackStore;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.testkit.FaultProxy;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestS3;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3 blob volumes next to the raw SDK, through a proxy adding latency to every request: raw PUT and
 * GET against the volume and the source, and packed objects, at several in-flight bounds.
 */
final class S3BlobBench {

  private final BlobBench.Params p;
  private final Report report;

  S3BlobBench(BlobBench.Params params, Report report) {
    this.p = params;
    this.report = report;
  }

  void run() throws Exception {
    S3Server server = TestS3.server();
    report.context("S3 server", server.toString());
    report.context("added latency per S3 request", p.latency().toMillis() + " ms");
    try (FaultProxy proxy =
        FaultProxy.start(server.endpoint(), FaultProxy.Faults.latencyOnly(p.latency()))) {
      int maxBound = p.bounds().stream().mapToInt(Integer::intValue).max().orElse(1);
      S3Settings settings =
          S3Settings.of(proxy.endpoint(), server.region(), server.accessKey(), server.secretKey())
              .withMaxConnections(maxBound + 8);
      try (S3Client client = S3Clients.create(settings, null)) {
        for (int bound : p.bounds()) {
          s3AtBound(client, bound);
        }
      }
    }
  }

  private void s3AtBound(S3Client client, int bound) throws Exception {
    String bucket = TestS3.createBucket();
    int count = bound == 1 ? Math.max(50, p.s3ObjectsPerBound() / 10) : p.s3ObjectsPerBound();
    List<byte[]> blobs = BlobBench.randomBlobs(count, p.smallSize(), 100 + bound);
    List<BlobDigest> digests = blobs.stream().map(BlobDigest::ofContent).toList();
    String group = "S3 8 KiB, " + bound + " in flight";

    S3Location rawLocation = new S3Location(bucket, "raw/");
    double putSeconds =
        BlobBench.parallel(
            count,
            bound,
            i ->
                client.putObject(
                    b ->
                        b.bucket(bucket)
                            .key(
                                rawLocation.key(
                                    BlobLayout.relativeName(digests.get(i), BlobCompression.NONE))),
                    RequestBody.fromBytes(blobs.get(i))),
            () -> {});
    Report.Row putLimit =
        report.add(group, "raw SDK PUT", count, BlobBench.bytes(blobs), putSeconds);

    try (BlobVolume volume = new S3BlobVolume(client, new S3Location(bucket, "volume/"))) {
      double s = BlobBench.writeAll(volume, blobs, digests, bound);
      report.add(group, "s3 volume write", count, BlobBench.bytes(blobs), s, putLimit);
    }
    try (BlobVolume volume =
        new PackedBlobVolume(
            new S3PackStore(
                client, new S3Location(bucket, "packed/packs/"), S3PackStore.DEFAULT_MAX_PACK_SIZE),
            new S3BlobVolume(client, new S3Location(bucket, "packed/blobs/")),
            PackedBlobVolume.DEFAULT_PACK_THRESHOLD,
            BlobCompression.NONE,
            0)) {
      double s = BlobBench.writeAll(volume, blobs, digests, bound);
      report.add(group, "packed-s3 volume write", count, BlobBench.bytes(blobs), s, putLimit);
    }

    double getSeconds =
        BlobBench.parallel(
            count,
            bound,
            i -> {
              try (InputStream in =
                  client.getObject(b ->
                      b.bucket(bucket)
                          .key(
                              rawLocation.key(
                                  BlobLayout.relativeName(
                                      digests.get(i), BlobCompression.NONE))))) {
                in.transferTo(OutputStream.nullOutputStream());
              }
            },
            () -> {});
    Report.Row getLimit =
        report.add(group, "raw SDK GET", count, BlobBench.bytes(blobs), getSeconds);
    BlobSource source = new S3BlobSource(client, rawLocation);
    double readSeconds =
        BlobBench.parallel(
            count,
            bound,
            i -> {
              try (InputStream in = source.openVerified(digests.get(i), blobs.get(i).length)) {
                in.transferTo(OutputStream.nullOutputStream());
              }
            },
            () -> {});
    report.add(
        group, "s3 source read (verified)", count, BlobBench.bytes(blobs), readSeconds, getLimit);
  }
}
