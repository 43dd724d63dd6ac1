package org.mailrestore.backup;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobLayout;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.Json;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/**
 * Writes a backup in format v1 to a local directory. Safe for concurrent use by account (each
 * account's {@link ItemSink} belongs to one thread).
 *
 * <p>The manifest is written last, by {@link #close()}: a directory without {@code backup.json} is
 * an unfinished backup and readers refuse it.
 */
public final class BackupWriter implements AutoCloseable {

  private final Path root;
  private final BackupManifest manifest;
  private final Set<Path> directories = ConcurrentHashMap.newKeySet();
  private final AtomicLong tempCounter = new AtomicLong();

  private BackupWriter(Path root, BackupManifest manifest) {
    this.root = root;
    this.manifest = manifest;
  }

  /**
   * Starts a backup in {@code root}, which must not exist or be empty.
   *
   * @throws FileAlreadyExistsException when {@code root} holds files already
   */
  public static BackupWriter create(Path root, BackupManifest manifest) throws IOException {
    Path dir = root.toAbsolutePath().normalize();
    if (Files.isDirectory(dir)) {
      try (var entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new FileAlreadyExistsException(
              dir.toString(), null, "the backup directory is not empty");
        }
      }
    }
    Files.createDirectories(dir);
    return new BackupWriter(dir, manifest);
  }

  public Path root() {
    return root;
  }

  public void writeDomain(Domain domain) throws IOException {
    writeJson(BackupLayout.domainFile(domain.name()), domain);
  }

  public void writeClassOfService(ClassOfService cos) throws IOException {
    writeJson(BackupLayout.cosFile(cos.name()), cos);
  }

  public void writeDistributionList(DistributionList list) throws IOException {
    writeJson(BackupLayout.listFile(list.address()), list);
  }

  public void writeGrants(String accountId, List<Grant> grants) throws IOException {
    if (!grants.isEmpty()) {
      writeJson(BackupLayout.sharesFile(accountId), new Shares(grants));
    }
  }

  /** Writes {@code account.json} and returns the sink for the account's items. */
  public ItemSink openAccount(Account account, ItemLayout layout) throws IOException {
    writeJson(BackupLayout.accountFile(account.id()), account);
    return switch (layout) {
      case PACKED -> new PackedSink(file(BackupLayout.packedItems(account.id())));
      case LOOSE -> {
        // The directory even with no items: an account without items/ reads as damaged.
        Files.createDirectories(root.resolve(BackupLayout.looseItemsDir(account.id())));
        yield new LooseSink(account.id());
      }
    };
  }

  /**
   * Stores a blob under its digest, once: a blob that is already there is left as it is.
   *
   * @return true when the blob was written, false when it was already present
   */
  public boolean writeBlob(BlobDigest digest, byte[] content, BlobCompression compression)
      throws IOException {
    return writeBlob(digest, new java.io.ByteArrayInputStream(content), compression);
  }

  /**
   * Stores a blob streamed from {@code content} under its digest, once (the caller checks the
   * digest; see {@link org.mailrestore.blob.VerifyingInputStream}).
   *
   * @return true when the blob was written, false when it was already present
   */
  public boolean writeBlob(BlobDigest digest, InputStream content, BlobCompression compression)
      throws IOException {
    Path target = file(BackupLayout.BLOBS + "/" + BlobLayout.relativeName(digest, compression));
    if (Files.exists(target)) {
      return false;
    }
    Path temp = target.resolveSibling(".tmp-" + digest.hex() + "-" + tempCounter.incrementAndGet());
    try (OutputStream out =
        compression.compress(
            new BufferedOutputStream(
                Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW), 64 * 1024))) {
      content.transferTo(out);
    } catch (IOException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    return true;
  }

  private void writeJson(String path, Object value) throws IOException {
    Path file = file(path);
    try {
      Json.PRETTY.writeValue(file, value);
    } catch (tools.jackson.core.JacksonException e) {
      throw new IOException("cannot write " + file + ": " + e.getOriginalMessage(), e);
    }
  }

  /** The absolute path of a backup file, with its directory created. */
  private Path file(String relative) throws IOException {
    Path file = root.resolve(relative);
    Path dir = file.getParent();
    if (!directories.contains(dir)) {
      Files.createDirectories(dir); // before it is recorded, so no other thread sees it missing
      directories.add(dir);
    }
    return file;
  }

  /** Writes the manifest, which marks the backup complete. */
  @Override
  public void close() throws IOException {
    writeJson(BackupLayout.MANIFEST, manifestJson(manifest));
  }

  /** The manifest as {@code backup.json} holds it. */
  public static tools.jackson.databind.node.ObjectNode manifestJson(BackupManifest manifest) {
    var node = Json.MAPPER.createObjectNode();
    node.put("format", manifest.format());
    node.put("version", manifest.version().toString());
    node.put("serverId", manifest.serverId());
    if (manifest.createdAt() != null) {
      node.put("createdAt", manifest.createdAt().toString());
    }
    if (manifest.description() != null) {
      node.put("description", manifest.description());
    }
    return node;
  }

  /** A packed item stream ({@code items.jsonl.zst}) written to any file. */
  public static ItemSink packedItems(Path file) throws IOException {
    return new PackedSink(file);
  }

  private static JsonGenerator generator(OutputStream out) {
    return ItemCodec.JSON.createGenerator(ObjectWriteContext.empty(), out);
  }

  /** One zstd-compressed JSON Lines stream. */
  private static final class PackedSink implements ItemSink {
    private final OutputStream out;
    private final JsonGenerator json;

    PackedSink(Path file) throws IOException {
      this.out =
          new ZstdOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 20), 3);
      this.json = generator(out);
    }

    @Override
    public void write(Item item) {
      ItemCodec.encode(json, item);
      json.writeRaw('\n');
    }

    @Override
    public void close() throws IOException {
      try {
        json.close();
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      out.close();
    }
  }

  /** One small file per item. */
  private final class LooseSink implements ItemSink {
    private final String accountId;

    LooseSink(String accountId) {
      this.accountId = accountId;
    }

    @Override
    public void write(Item item) throws IOException {
      Path path = file(BackupLayout.looseItemFile(accountId, item.id()));
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(path), 8192);
          JsonGenerator json = generator(out)) {
        ItemCodec.encode(json, item);
      }
    }

    @Override
    public void close() {}
  }
}
