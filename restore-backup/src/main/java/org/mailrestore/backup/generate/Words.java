package org.mailrestore.backup.generate;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** A small vocabulary for synthetic text: compresses like real prose (3-5x with zstd). */
final class Words {

  private static final String[] WORDS =
      ("the of and to a in is it you that he was for on are with as I his they be at one have"
              + " this from or had by hot word but what some we can out other were all there when"
              + " up use your how said an each she which do their time if will way about many then"
              + " them write would like so these her long make thing see him two has look more day"
              + " could go come did number sound no most people my over know water than call first"
              + " who may down side been now find any new work part take get place made live where"
              + " after back little only round man year came show every good me give our under name"
              + " very through just form sentence great think say help low line differ turn cause"
              + " much mean before move right boy old too same tell does set three want air well also"
              + " play small end put home read hand port large spell add even land here must big high"
              + " such follow act why ask men change went light kind off need house picture try us"
              + " again animal point mother world near build self earth father meeting contract"
              + " schedule report budget forecast gas power trading desk deal price volume pipeline"
              + " agreement review draft attached please thanks regards call tomorrow monday friday"
              + " quarter revenue customer project status update approval legal counsel risk credit")
          .split(" ");

  private static final byte[][] BYTES = new byte[WORDS.length][];

  static {
    for (int i = 0; i < WORDS.length; i++) {
      BYTES[i] = WORDS[i].getBytes(StandardCharsets.US_ASCII);
    }
  }

  private static final String[] FIRST_NAMES = {
    "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory",
    "niaj", "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter", "xena", "yusuf",
    "zoe"
  };

  private static final String[] FOLDER_WORDS = {
    "Projects",
    "Clients",
    "Finance",
    "Legal",
    "Travel",
    "Reports",
    "Archive",
    "Deals",
    "Vendors",
    "Family",
    "Receipts",
    "Hiring",
    "Board",
    "Support",
    "Newsletters",
    "Conferences",
    "Taxes",
    "Gas Desk",
    "Power",
    "Contracts",
    "2001",
    "2002",
    "Q1",
    "Q2",
    "Q3",
    "Q4",
    "Misc",
    "Personal"
  };

  private static final String[] TAG_WORDS = {
    "urgent", "follow-up", "waiting", "important", "later", "personal", "work", "finance", "todo"
  };

  private Words() {}

  static byte[] word(SplittableRandom random) {
    // Zipf-like: early (common) words come up far more often, as in real text.
    double u = random.nextDouble();
    return BYTES[(int) (BYTES.length * u * u)];
  }

  static String words(SplittableRandom random, int count) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(WORDS[(int) (WORDS.length * Math.pow(random.nextDouble(), 2))]);
    }
    return sb.toString();
  }

  static String firstName(int index) {
    return FIRST_NAMES[index % FIRST_NAMES.length];
  }

  static String folderWord(SplittableRandom random) {
    return FOLDER_WORDS[random.nextInt(FOLDER_WORDS.length)];
  }

  static String tagWord(int index) {
    return TAG_WORDS[index % TAG_WORDS.length];
  }

  static int tagWordCount() {
    return TAG_WORDS.length;
  }
}
