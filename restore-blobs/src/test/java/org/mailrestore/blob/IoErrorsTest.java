package org.mailrestore.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoErrorsTest {

  @Test
  void aFileSystemErrorSaysWhatIsWrongWithItsFileNotOnlyWhichFile(@TempDir Path dir)
      throws Exception {
    Path inTheWay = Files.writeString(dir.resolve("d0"), "x");
    IOException real = null;
    try {
      Files.createDirectories(inTheWay.resolve("blob"));
    } catch (IOException e) {
      real = e;
    }
    assertThat(real).isNotNull();
    assertThat(IoErrors.describe(real)).startsWith(inTheWay.toString()).doesNotEndWith("d0");
    assertThat(IoErrors.describe(new FileAlreadyExistsException("/v/d0")))
        .isEqualTo("/v/d0: a file of that name is in the way");
    assertThat(IoErrors.describe(new AccessDeniedException("/v/d0", "/v/d1", null)))
        .isEqualTo("/v/d0 -> /v/d1: permission denied");
    assertThat(IoErrors.describe(new FileSystemException("/v/d0", null, "No space left on device")))
        .isEqualTo("/v/d0: No space left on device");
  }

  @Test
  void anyOtherErrorIsItsMessageOrItsKind() {
    assertThat(IoErrors.describe(new IOException("connection reset")))
        .isEqualTo("connection reset");
    assertThat(IoErrors.describe(new IOException())).isEqualTo("IOException");
  }
}
