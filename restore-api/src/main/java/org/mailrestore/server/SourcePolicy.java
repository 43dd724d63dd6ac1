package org.mailrestore.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mailrestore.blob.s3.S3Location;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.source.SourceKind;
import org.mailrestore.source.SourceSpec;
import org.springframework.stereotype.Component;

/**
 * What a request may read: a local location only inside the configured allowed roots (compared
 * after symbolic links and {@code ..} are resolved, so neither can lead out) and of the form its
 * kind reads (a directory, a file); an S3 location only through a configured profile. The same for
 * every source kind.
 */
@Component
public class SourcePolicy {

  /** A source the policy refuses: the request field and why. */
  public static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1;
    private final String field;

    Refused(String field, String message) {
      super(message);
      this.field = field;
    }

    public String field() {
      return field;
    }
  }

  private final List<Path> roots;
  private final S3Profiles profiles;

  SourcePolicy(ServerSettings settings, S3Profiles profiles) {
    List<Path> real = new ArrayList<>();
    for (Path root : settings.sources().allowedRoots()) {
      try {
        real.add(root.toRealPath());
      } catch (IOException e) {
        // A root that does not exist allows nothing.
      }
    }
    this.roots = List.copyOf(real);
    this.profiles = profiles;
  }

  /** The source as it may be read (a local location resolved), or a {@link Refused}. */
  public SourceSpec check(SourceSpec source) {
    if (source.isS3()) {
      try {
        S3Location.parse(source.location());
      } catch (IllegalArgumentException e) {
        throw new Refused("source.location", e.getMessage());
      }
      if (!profiles.has(source.profile())) {
        throw new Refused(
            "source.profile", "no S3 profile named \"" + source.profile() + "\" is configured");
      }
      return source;
    }
    SourceKind kind = SourceKind.installed().require(source.kind());
    return source.withLocation(allowed(source.location(), kind.location()).toString());
  }

  private Path allowed(String path, SourceKind.Location form) {
    Path requested = Path.of(path);
    if (!requested.isAbsolute()) {
      throw new Refused("source.location", "must be an absolute path");
    }
    if (roots.isEmpty()) {
      throw new Refused(
          "source.location",
          "local sources are disabled: no mailrestore.sources.allowed-roots are configured");
    }
    // One answer for "missing" and "outside": the API must not tell what exists elsewhere.
    String what =
        switch (form) {
          case DIRECTORY -> "a directory";
          case FILE -> "a file";
          case FILE_OR_DIRECTORY -> "a file or directory";
        };
    String refusal =
        "is not "
            + what
            + " inside an allowed root (mailrestore.sources.allowed-roots);"
            + " symbolic links and .. are resolved first";
    Path real;
    try {
      real = requested.toRealPath();
    } catch (IOException e) {
      throw new Refused("source.location", refusal);
    }
    boolean rightForm =
        switch (form) {
          case DIRECTORY -> Files.isDirectory(real);
          case FILE -> Files.isRegularFile(real);
          case FILE_OR_DIRECTORY -> Files.isDirectory(real) || Files.isRegularFile(real);
        };
    for (Path root : roots) {
      if (real.startsWith(root) && rightForm) {
        return real;
      }
    }
    throw new Refused("source.location", refusal);
  }
}
