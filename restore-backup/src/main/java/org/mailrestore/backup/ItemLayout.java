package org.mailrestore.backup;

/** How an account's item records are stored in a backup. */
public enum ItemLayout {
  /** One zstd-compressed JSON Lines file: {@code items.jsonl.zst}. Read sequentially; fast. */
  PACKED,
  /** One JSON file per item: {@code items/<NN>/<id>.json}. Easy to inspect and patch by hand. */
  LOOSE
}
