package org.mailrestore.kind;

import org.mailrestore.blob.BlobException;

/** Why something was not restored as it is in the backup. Stable codes: reports, metrics, tests. */
public enum FailureReason {
  /** An item record that cannot be decoded or is invalid. */
  INVALID_ITEM,
  /** The item's blob is not in the backup. */
  BLOB_MISSING,
  /** The blob's bytes do not hash to its digest. */
  DIGEST_MISMATCH,
  /** The blob has another size than its item declares. */
  SIZE_MISMATCH,
  /** A compressed blob cannot be decompressed. */
  CORRUPT_BLOB,
  /** Reading or writing the blob failed. */
  BLOB_IO,
  /**
   * The item is larger, once decompressed, than the largest item a restore reads
   * (mailrestore.limits.max-item-size): a decompression bomb, or a limit to raise.
   */
  ITEM_TOO_LARGE,
  /** The item's folder is not in the backup (nor a system folder). */
  FOLDER_MISSING,
  /** Warning: a folder without its parent was restored under the recovery folder. */
  ORPHAN_FOLDER,
  /** Warning: a folder cycle was broken; the folder was restored under the recovery folder. */
  FOLDER_CYCLE,
  /** Warning: a folder was renamed because its name was taken under the same parent. */
  DUPLICATE_NAME,
  /**
   * Warning: the target refused a folder's name (Cyrus takes no {@code *} or {@code %}); the folder
   * was restored under a name it takes, with its items.
   */
  FOLDER_RENAMED,
  /** A file of the source (a message of a Maildir tree) cannot be read. */
  SOURCE_UNREADABLE,
  /** An account's files cannot be read. */
  ACCOUNT_UNREADABLE,
  /**
   * The source was removed, became unreadable or was replaced while the operation read it: what was
   * read of the account (or the operation) cannot be known complete.
   */
  SOURCE_CHANGED,
  /** With provisioning skipped, the account to restore into does not exist. */
  ACCOUNT_MISSING,
  /** A domain, class of service or list file cannot be read. */
  PROVISIONING_UNREADABLE,
  /** An alias belongs to another account in the target. */
  ALIAS_TAKEN,
  /** A grant names a grantee that is not in the target. */
  GRANTEE_MISSING,
  /** A grant is on a folder that was not restored. */
  GRANT_FOLDER_MISSING,
  /** A mountpoint points to an account or folder that was not restored. */
  MOUNT_TARGET_MISSING,
  /** The account's shares file cannot be read. */
  SHARES_UNREADABLE,
  /** The database refused a write (after retries). */
  DATABASE_ERROR,
  /** Warning: the target cannot hold this kind of thing (lists on an IMAP server); left out. */
  NOT_CARRIED,
  /** The target refused the item or could not be reached, with its own words. */
  TARGET_REFUSED,
  /**
   * A fault no retry can cure (a bug, a value out of range): the account or the operation fails at
   * once, with the error's class and message.
   */
  INTERNAL_ERROR;

  public static FailureReason of(BlobException.Reason reason) {
    return switch (reason) {
      case MISSING -> BLOB_MISSING;
      case DIGEST_MISMATCH -> DIGEST_MISMATCH;
      case SIZE_MISMATCH -> SIZE_MISMATCH;
      case CORRUPT_COMPRESSION -> CORRUPT_BLOB;
      case IO_ERROR -> BLOB_IO;
      case TOO_LARGE -> ITEM_TOO_LARGE;
    };
  }

  /** True for repairs: the thing was restored, differently from the backup. */
  public boolean isWarning() {
    return this == ORPHAN_FOLDER
        || this == FOLDER_CYCLE
        || this == DUPLICATE_NAME
        || this == FOLDER_RENAMED
        || this == NOT_CARRIED;
  }
}
