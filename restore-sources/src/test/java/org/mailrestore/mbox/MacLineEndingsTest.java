package org.mailrestore.mbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MacLineEndingsTest {

  private static byte[] read(String text, boolean oneByteAtATime) throws IOException {
    InputStream raw = new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
    if (oneByteAtATime) {
      raw =
          new FilterInputStream(raw) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
              return super.read(b, off, Math.min(len, 1));
            }
          };
    }
    try (InputStream in = MacLineEndings.of(raw)) {
      return in.readAllBytes();
    }
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  @Test
  void aFileWhoseFirstLineEndsInALoneCrHasItsLoneCrsReadAsLf() throws IOException {
    String mac = "From a@b Thu Jan  1 00:00:00 2015\rSubject: x\r\rbody\r\r\n\rend\r";
    for (boolean chunked : new boolean[] {false, true}) {
      assertThat(text(read(mac, chunked)))
          .as("read in one piece: %s", !chunked)
          .isEqualTo("From a@b Thu Jan  1 00:00:00 2015\nSubject: x\n\nbody\n\r\n\nend\n");
    }
  }

  @Test
  void filesWithLfOrCrlfLinesAreReadAsTheyAre() throws IOException {
    String lf = "From a@b Thu Jan  1 00:00:00 2015\nSubject: x\r\rbody\n";
    String crlf = "From a@b Thu Jan  1 00:00:00 2015\r\nSubject: x\rbody\r\n";
    assertThat(text(read(lf, true))).isEqualTo(lf);
    assertThat(text(read(crlf, false))).isEqualTo(crlf);
    assertThat(text(read("", false))).isEmpty();
  }
}
