package org.mailrestore.zimbra;

import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.mailrestore.backup.BackupStorage;
import org.mailrestore.backup.S3BackupStorage;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.PathFence;
import org.mailrestore.blob.s3.S3Location;
import org.mailrestore.source.LocalIdentity;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceFormatException;
import org.mailrestore.source.SourceKind;
import org.mailrestore.source.SourceSpec;

/**
 * Zimbra and Carbonio account archives ({@code .tgz}), one per account, in a directory or a bucket
 * (docs/zimbra-archives.md).
 */
public final class ZimbraTgzKind implements SourceKind {

  public static final String NAME = "zimbra-tgz";

  /** The file that names the Zimbra account ids of the archives' shares, next to the archives. */
  public static final String IDS_FILE = "zimbra-ids.txt";

  static final List<String> EXTENSIONS = List.of(".tgz", ".tar.gz", ".tar");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Zimbra account archives (getRestURL \"//?fmt=tgz\"): one <address>.tgz, or a directory"
        + " or s3://bucket/prefix of them";
  }

  @Override
  public Location location() {
    return Location.FILE_OR_DIRECTORY;
  }

  @Override
  public boolean readsS3() {
    return true;
  }

  @Override
  public String describe(SourceSpec spec) {
    return "Zimbra archives "
        + spec.location()
        + (spec.isS3() ? " (profile " + spec.profile() + ")" : "");
  }

  @Override
  public MailSource open(SourceSpec spec, SourceContext context) throws IOException {
    long maxEntry = context.limits().maxItemBytes();
    Listing listing =
        spec.isS3() ? listS3(spec, context) : listLocal(Path.of(spec.location()), context.fence());
    Map<String, ArchiveFile> byAddress = new TreeMap<>();
    List<String> unnamed = new ArrayList<>();
    if (listing.single()) {
      ArchiveFile file = listing.files().get(0);
      String address = selectedAddress(context);
      if (address == null) {
        address = ZimbraArchiveSource.addressOf(file.name());
      }
      if (address == null) {
        throw new SourceFormatException(
            "cannot tell whose archive "
                + file.name()
                + " is: name the account with --account ADDRESS (\"accounts\" in a request), or"
                + " name the file <address>.tgz");
      }
      byAddress.put(address, file);
    } else {
      for (ArchiveFile file : listing.files()) {
        String address = ZimbraArchiveSource.addressOf(file.name());
        if (address == null) {
          unnamed.add(file.name());
        } else if (byAddress.putIfAbsent(address, file) != null) {
          throw new SourceFormatException(
              "two archives of "
                  + spec.location()
                  + " are "
                  + address
                  + "'s ("
                  + byAddress.get(address).name()
                  + " and "
                  + file.name()
                  + "): keep one");
        }
      }
      if (!unnamed.isEmpty()) {
        throw new SourceFormatException(
            "in a directory of Zimbra archives each file is named <address>.tgz; these are not: "
                + String.join(", ", unnamed.subList(0, Math.min(10, unnamed.size())))
                + (unnamed.size() > 10 ? " and " + (unnamed.size() - 10) + " more" : "")
                + " (rename them, or restore each with --account ADDRESS)");
      }
      if (byAddress.isEmpty()) {
        throw new SourceFormatException(
            spec.location() + " holds no Zimbra archive (" + String.join(", ", EXTENSIONS) + ")");
      }
    }
    ZimbraIds ids = ZimbraIds.NONE;
    if (listing.ids() != null) {
      try (var in = listing.ids().opener().open()) {
        ids = ZimbraIds.read(new InputStreamReader(in, StandardCharsets.UTF_8), IDS_FILE);
      }
    }
    return new ZimbraArchiveSource(describe(spec), byAddress, ids, maxEntry, listing.identity());
  }

  /** The archives a location holds, the ids file next to them (or null), and what tells it. */
  private record Listing(
      List<ArchiveFile> files,
      boolean single,
      ArchiveFile ids,
      ZimbraArchiveSource.Identity identity) {}

  private static Listing listLocal(Path location, PathFence fence) throws IOException {
    Path path = location.toAbsolutePath().normalize();
    if (fence.isRegularFile(path)) {
      Path ids = path.resolveSibling(IDS_FILE);
      return new Listing(
          List.of(localFile(path, fence)),
          true,
          fence.isRegularFile(ids) ? localFile(ids, fence) : null,
          () -> LocalIdentity.of(path));
    }
    if (!fence.isDirectory(path)) {
      throw new NoSuchFileException(path + " is neither an archive nor a directory of archives");
    }
    List<ArchiveFile> files = new ArrayList<>();
    ArchiveFile ids = null;
    for (Path entryName : fence.names(path)) {
      Path p = path.resolve(entryName);
      String name = entryName.toString();
      BasicFileAttributes attrs = fence.attributes(p);
      if ((!attrs.isSymbolicLink() && !attrs.isRegularFile()) || name.startsWith(".")) {
        continue; // a linked archive is listed, and fails as its account when opened
      }
      if (name.equals(IDS_FILE)) {
        ids = localFile(p, fence);
      } else if (isArchiveName(name)) {
        files.add(localFile(p, fence));
      }
    }
    files.sort((a, b) -> a.name().compareTo(b.name()));
    return new Listing(files, false, ids, () -> LocalIdentity.of(path));
  }

  private static ArchiveFile localFile(Path p, PathFence fence) {
    // Links are not followed (the service's allowed roots hold for every file, not just the top).
    return new ArchiveFile(
        p.getFileName().toString(),
        () -> {
          if (fence.attributes(p).isSymbolicLink()) {
            throw new IOException(p.getFileName() + " is a symbolic link; links are not followed");
          }
          return fence.open(p);
        });
  }

  private static Listing listS3(SourceSpec spec, SourceContext context) throws IOException {
    var client = context.s3().client(spec.profile());
    String rest = spec.location().substring(SourceSpec.S3_SCHEME.length());
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    String key = slash < 0 ? "" : rest.substring(slash + 1);
    if (isArchiveName(key)) {
      int last = key.lastIndexOf('/');
      String dir = last < 0 ? "" : key.substring(0, last + 1);
      String name = key.substring(last + 1);
      S3BackupStorage storage = new S3BackupStorage(client, new S3Location(bucket, dir));
      ArchiveFile ids = storage.exists(IDS_FILE) ? s3File(storage, IDS_FILE) : null;
      return new Listing(
          List.of(s3File(storage, name)), true, ids, () -> "etag " + storage.etag(name));
    }
    S3BackupStorage storage = new S3BackupStorage(client, new S3Location(bucket, key));
    List<ArchiveFile> files = new ArrayList<>();
    ArchiveFile ids = null;
    for (String name : storage.list("")) {
      if (name.equals(IDS_FILE)) {
        ids = s3File(storage, name);
      } else if (isArchiveName(name) && !name.contains("/")) {
        files.add(s3File(storage, name));
      }
    }
    // The archives' names: a prefix emptied, or filled with other archives, differs.
    return new Listing(
        files,
        false,
        ids,
        () -> {
          List<String> names = storage.list("");
          if (names.isEmpty()) {
            throw new NoSuchFileException(storage.describe() + " holds no archive any more");
          }
          return "archives "
              + BlobDigest.ofContent(String.join("/", names).getBytes(StandardCharsets.UTF_8))
                  .hex()
                  .substring(0, 16);
        });
  }

  private static ArchiveFile s3File(BackupStorage storage, String name) {
    return new ArchiveFile(name, () -> storage.open(name));
  }

  private static boolean isArchiveName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return EXTENSIONS.stream().anyMatch(lower::endsWith);
  }

  /** The one address the restore selected, when it selected exactly one. */
  private static String selectedAddress(SourceContext context) {
    if (context.accounts().size() != 1) {
      return null;
    }
    String only = context.accounts().iterator().next().toLowerCase(Locale.ROOT);
    return ZimbraArchiveSource.isAddress(only) ? only : null;
  }

  /** A local archive, or directory of archives, as a source. */
  public static SourceSpec local(Path location) {
    return SourceSpec.of(NAME, location.toAbsolutePath().normalize().toString());
  }
}
