package org.mailrestore.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * JUnit's {@code @TempDir} directories in the {@link ScratchSpace}: the build names it as the
 * default factory ({@code junit.jupiter.tempdir.factory.default}).
 */
public final class ScratchTempDirs implements TempDirFactory {

  @Override
  public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context)
      throws Exception {
    return Files.createTempDirectory(ScratchSpace.root(), "junit-");
  }
}
