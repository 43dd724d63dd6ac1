package org.mailrestore.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./benchmark blobs}: blob volumes and sources next to the media's raw limits. */
@Command(
    name = "blobs",
    mixinStandardHelpOptions = true,
    description =
        "Blob volumes and sources next to the raw limits of the same media: durable file"
            + " creation and copy locally; SDK PUT and GET on S3 through a latency proxy.")
final class BlobsCommand implements Callable<Integer> {

  @Option(
      names = "--quick",
      description = "Fewer objects and a smaller large blob (about a minute)")
  boolean quick;

  @Option(
      names = "--small-count",
      description = "Small blobs written locally (default: 20000, quick 5000)")
  Integer smallCount;

  @Option(
      names = "--small-size",
      defaultValue = "8192",
      description = "Bytes per small blob (default: ${DEFAULT-VALUE})")
  int smallSize;

  @Option(names = "--large-mib", description = "The large blob, in MiB (default: 256, quick 64)")
  Integer largeMib;

  @Option(
      names = "--threads",
      defaultValue = "4",
      description = "Writers for local blobs (default: ${DEFAULT-VALUE})")
  int threads;

  @Option(
      names = "--bounds",
      defaultValue = "1,16,64",
      split = ",",
      description = "S3 requests in flight to measure at (default: ${DEFAULT-VALUE})")
  List<Integer> bounds;

  @Option(
      names = "--s3-objects",
      description = "S3 objects per bound (default: 2000, quick 500; a tenth at bound 1)")
  Integer s3Objects;

  @Option(
      names = "--latency-ms",
      defaultValue = "15",
      description = "Latency added to each S3 request (default: ${DEFAULT-VALUE})")
  int latencyMs;

  @Option(names = "--no-s3", description = "Local media only")
  boolean noS3;

  @Option(
      names = "--work-dir",
      description = "Where to write (default: a temporary directory; a fresh one is best)")
  Path workDir;

  @Option(names = "--json", description = "Also write the results to this file")
  Path json;

  @Override
  public Integer call() throws Exception {
    Path work =
        workDir != null
            ? Files.createDirectories(workDir)
            : Files.createTempDirectory("mailrestore-bench-blobs");
    try {
      Report report = new Report("blobs: volumes and sources next to the limits of their media");
      new BlobBench(
              new BlobBench.Params(
                  smallCount != null ? smallCount : quick ? 5000 : 20000,
                  smallSize,
                  (long) (largeMib != null ? largeMib : quick ? 64 : 256) << 20,
                  threads,
                  bounds,
                  s3Objects != null ? s3Objects : quick ? 500 : 2000,
                  Duration.ofMillis(latencyMs),
                  !noS3,
                  work),
              report)
          .run();
      report.print(System.out);
      if (json != null) {
        report.writeJson(json);
      }
      return 0;
    } finally {
      if (workDir == null) {
        try (Stream<Path> paths = Files.walk(work)) {
          paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    }
  }
}
