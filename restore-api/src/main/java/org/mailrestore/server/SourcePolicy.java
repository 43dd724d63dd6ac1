package org.mailrestore.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mailrestore.restore.BackupSource;
import org.mailrestore.restore.storage.S3Profiles;
import org.springframework.stereotype.Component;

/**
 * What a request may read: a local path only inside the configured allowed roots (compared after
 * symbolic links and {@code ..} are resolved, so neither can lead out), an S3 bucket only through a
 * configured profile.
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

  /** The source as it may be read (local paths resolved), or a {@link Refused}. */
  public BackupSource check(BackupSource source) {
    return switch (source) {
      case BackupSource.Local(String path) -> new BackupSource.Local(allowed(path).toString());
      case BackupSource.Maildir(String path, String domain, String layout) ->
          new BackupSource.Maildir(allowed(path).toString(), domain, layout);
      case BackupSource.S3(String profile, String bucket, String prefix) -> {
        if (!profiles.has(profile)) {
          throw new Refused(
              "source.profile", "no S3 profile named \"" + profile + "\" is configured");
        }
        yield source;
      }
    };
  }

  private Path allowed(String path) {
    Path requested = Path.of(path);
    if (!requested.isAbsolute()) {
      throw new Refused("source.path", "must be an absolute path");
    }
    if (roots.isEmpty()) {
      throw new Refused(
          "source.path",
          "local sources are disabled: no mailrestore.sources.allowed-roots are configured");
    }
    // One answer for "missing" and "outside": the API must not tell what exists elsewhere.
    String refusal =
        "is not a directory inside an allowed root (mailrestore.sources.allowed-roots);"
            + " symbolic links and .. are resolved first";
    Path real;
    try {
      real = requested.toRealPath();
    } catch (IOException e) {
      throw new Refused("source.path", refusal);
    }
    for (Path root : roots) {
      if (real.startsWith(root) && Files.isDirectory(real)) {
        return real;
      }
    }
    throw new Refused("source.path", refusal);
  }
}
