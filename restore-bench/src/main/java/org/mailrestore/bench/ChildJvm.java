package org.mailrestore.bench;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * How a restore JVM is started so that it starts as the {@code mailrestore} launcher starts a
 * command: from plain jars (the benchmark jar unpacked once per build; not through Spring Boot's
 * loader of nested jars, which no user's restore goes through) and, on JDK 25 and later, with an
 * ahead-of-time cache of its classes (JEP 483), made once per build by an unmeasured training
 * restore, as the launcher makes its own with a demo restore. AWS-LC's native library is unpacked
 * beside the jars and loaded from there, as the launcher does (decision 0025): loaded from its
 * signed jar it costs every restore JVM about 0.2 CPU-s that no user's command pays.
 */
final class ChildJvm {

  private ChildJvm() {}

  /**
   * The flags that name the class path and the cache, for a command line after the JVM's options.
   *
   * @param training runs the given JVM options and class path as a restore that trains the cache
   *     (exit code 0 when it went through)
   */
  static synchronized List<String> classPath(Path java, Function<List<String>, Integer> training)
      throws IOException, InterruptedException {
    Path jar = unpacked(java);
    List<String> flags = new ArrayList<>();
    if (Runtime.version().feature() >= 25 && !"off".equals(System.getenv("MAILRESTORE_AOT"))) {
      Path cache = jar.resolveSibling("restore-child.aot");
      Path failed = jar.resolveSibling("restore-child.aot.failed");
      if (!Files.isRegularFile(cache) && !Files.exists(failed)) {
        System.err.println(
            "preparing the restore JVM's start-up cache for this build (one unmeasured restore)");
        Path partial = jar.resolveSibling("restore-child.aot.partial");
        List<String> options = List.of("-XX:AOTCacheOutput=" + partial, "-jar", jar.toString());
        if (training.apply(options) == 0 && Files.isRegularFile(partial)) {
          Files.move(partial, cache);
        } else {
          Files.createFile(failed);
          System.err.println("the start-up cache could not be made; restores run without it");
        }
      }
      if (Files.isRegularFile(cache)) {
        flags.add("-XX:AOTCache=" + cache);
      }
    }
    Path lib = jar.resolveSibling(NATIVE_DIR);
    if (Files.isRegularFile(lib.resolve(NATIVE_LIB))) {
      flags.add("-Dcom.amazon.corretto.crypto.provider.useExternalLib=true");
      String path = System.getProperty("java.library.path", "");
      flags.add("-Djava.library.path=" + lib + (path.isEmpty() ? "" : File.pathSeparator + path));
    }
    flags.addAll(List.of("-jar", jar.toString()));
    return flags;
  }

  private static final String NATIVE_DIR = "native";
  private static final String NATIVE_LIB = "libamazonCorrettoCryptoProvider.so";

  /** AWS-LC's library out of its jar into {@code dir}/native, where the provider's jar has one. */
  private static void unpackNative(Path dir) throws IOException {
    try (var jars =
        Files.newDirectoryStream(dir.resolve("lib"), "AmazonCorrettoCryptoProvider-*")) {
      for (Path accp : jars) {
        try (ZipFile zip = new ZipFile(accp.toFile())) {
          ZipEntry entry = zip.getEntry("com/amazon/corretto/crypto/provider/" + NATIVE_LIB);
          if (entry != null) {
            Files.createDirectories(dir.resolve(NATIVE_DIR));
            try (InputStream in = zip.getInputStream(entry)) {
              Files.copy(in, dir.resolve(NATIVE_DIR).resolve(NATIVE_LIB));
            }
          }
        }
      }
    }
  }

  /** The benchmark jar unpacked next to itself, once per build of it; a jar naming the others. */
  private static Path unpacked(Path java) throws IOException, InterruptedException {
    Path packed = Path.of(System.getProperty("java.class.path")).toAbsolutePath();
    if (!Files.isRegularFile(packed) || !packed.toString().endsWith(".jar")) {
      return packed; // classes, not a jar (an IDE): nothing to unpack
    }
    Path dir =
        packed.resolveSibling(
            "unpacked-" + Files.getLastModifiedTime(packed).toMillis() + "-" + Files.size(packed));
    Path jar = dir.resolve(packed.getFileName());
    if (Files.isRegularFile(jar)) {
      return jar;
    }
    Path partial = Files.createTempDirectory(packed.getParent(), "unpacking-");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-Djarmode=tools",
                "-jar",
                packed.toString(),
                "extract",
                "--destination",
                partial.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException("cannot unpack " + packed + ": " + out);
    }
    unpackNative(partial);
    Files.move(partial, dir);
    return jar;
  }
}
