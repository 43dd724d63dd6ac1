package org.mailrestore.backup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.ResumingInputStream;
import org.mailrestore.blob.RetryPolicy;
import org.mailrestore.blob.s3.S3BlobSource;
import org.mailrestore.blob.s3.S3Errors;
import org.mailrestore.blob.s3.S3Location;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.paginators.ListObjectsV2Iterable;

/** A backup in a bucket, under a prefix, with the same names as on disk. */
public final class S3BackupStorage implements BackupStorage {

  private final S3Client client;
  private final S3Location root;
  private final BlobSource blobs;
  private final Runnable onRetry;

  /**
   * @param blobs the backup's blobs (normally {@link S3BlobSource} under {@code root/blobs/}, maybe
   *     decorated with retries and bounds)
   * @param onRetry told of every metadata read retried after a passing failure
   */
  public S3BackupStorage(S3Client client, S3Location root, BlobSource blobs, Runnable onRetry) {
    this.client = client;
    this.root = root;
    this.blobs = blobs;
    this.onRetry = onRetry;
  }

  public S3BackupStorage(S3Client client, S3Location root) {
    this(client, root, new S3BlobSource(client, root.resolve(BackupLayout.BLOBS + "/")), () -> {});
  }

  /**
   * A metadata file, read through resets and throttling: a stream cut mid-body is opened again and
   * resumed where it broke, so a passing failure never reads as a truncated file.
   */
  @Override
  public InputStream open(String path) throws IOException {
    return ResumingInputStream.open(
        () -> openOnce(path), RetryPolicy.DEFAULT, e -> onRetry.run(), root + path);
  }

  private InputStream openOnce(String path) throws IOException {
    try {
      return client.getObject(b -> b.bucket(root.bucket()).key(root.key(path)));
    } catch (NoSuchKeyException e) {
      throw new NoSuchFileException(root + path);
    } catch (S3Exception e) {
      if (e.statusCode() >= 400
          && e.statusCode() < 500
          && e.statusCode() != 408
          && e.statusCode() != 429) {
        // refused (403...): retrying will not change the answer
        throw new FileSystemException(root + path, null, S3Errors.describe(e));
      }
      throw new IOException("reading " + root + path + " failed: " + S3Errors.describe(e), e);
    } catch (SdkException e) {
      throw new IOException("reading " + root + path + " failed: " + S3Errors.describe(e), e);
    }
  }

  @Override
  public boolean exists(String path) throws IOException {
    try {
      client.headObject(b -> b.bucket(root.bucket()).key(root.key(path)));
      return true;
    } catch (NoSuchKeyException e) {
      return false;
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return false;
      }
      throw new IOException("checking " + root + path + " failed: " + S3Errors.describe(e), e);
    } catch (SdkException e) {
      throw new IOException("checking " + root + path + " failed: " + S3Errors.describe(e), e);
    }
  }

  @Override
  public List<String> list(String directory) throws IOException {
    String prefix =
        directory.isEmpty()
            ? root.prefix()
            : root.key(directory.endsWith("/") ? directory : directory + "/");
    List<String> names = new ArrayList<>();
    try {
      ListObjectsV2Iterable pages =
          client.listObjectsV2Paginator(b -> b.bucket(root.bucket()).prefix(prefix).delimiter("/"));
      for (var page : pages) {
        for (CommonPrefix p : page.commonPrefixes()) {
          String name = p.prefix().substring(prefix.length());
          names.add(name.endsWith("/") ? name.substring(0, name.length() - 1) : name);
        }
        for (S3Object o : page.contents()) {
          names.add(o.key().substring(prefix.length()));
        }
      }
    } catch (SdkException e) {
      throw new IOException(
          "listing " + prefix + " in " + root.bucket() + " failed: " + S3Errors.describe(e), e);
    }
    names.removeIf(String::isEmpty);
    names.sort(null);
    return names;
  }

  /** The manifest's ETag: a backup uploaded again in its place differs. */
  @Override
  public String identity() throws IOException {
    return "manifest etag " + etag(BackupLayout.MANIFEST);
  }

  /**
   * The ETag of an object, which another upload in its place does not share.
   *
   * @throws NoSuchFileException when it is not there
   */
  public String etag(String path) throws IOException {
    try {
      return client.headObject(b -> b.bucket(root.bucket()).key(root.key(path))).eTag();
    } catch (NoSuchKeyException e) {
      throw new NoSuchFileException(root + path);
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        throw new NoSuchFileException(root + path);
      }
      throw new IOException("checking " + root + path + " failed: " + S3Errors.describe(e), e);
    } catch (SdkException e) {
      throw new IOException("checking " + root + path + " failed: " + S3Errors.describe(e), e);
    }
  }

  @Override
  public BlobSource blobSource() {
    return blobs;
  }

  @Override
  public String describe() {
    String where = root.toString();
    return where.endsWith("/") ? where.substring(0, where.length() - 1) : where;
  }
}
