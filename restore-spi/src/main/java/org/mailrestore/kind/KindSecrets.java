package org.mailrestore.kind;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.jspecify.annotations.Nullable;

/**
 * Where kinds that reach a server find their secrets and trust: a password from a file or the
 * environment (never from a request or a command line, which are stored and shown), and a TLS
 * context that trusts the JDK's CAs or a private CA's trust store.
 */
public final class KindSecrets {

  private KindSecrets() {}

  /**
   * The password in {@code file} (its first line, stripped) when one is given, else in the
   * environment variable {@code envName}.
   *
   * @param what whose password, for the error ("the IMAP admin's")
   * @param fileFlag the flag that names the file, for the error
   * @throws IOException saying where to put it
   */
  public static String password(
      @Nullable String file, Map<String, String> env, String envName, String what, String fileFlag)
      throws IOException {
    if (file != null) {
      try {
        return Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        throw new IOException("cannot read the password file " + file + ": " + e, e);
      }
    }
    String password = env.get(envName);
    if (password == null || password.isEmpty()) {
      throw new IOException("needs " + what + " password: " + envName + " or " + fileFlag);
    }
    return password;
  }

  /**
   * A TLS context that verifies servers against the JDK's CAs, or against the CAs of a PKCS12 trust
   * store.
   */
  public static SSLContext tls(@Nullable String trustStore, @Nullable String password)
      throws IOException {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      if (trustStore == null) {
        context.init(null, null, null);
        return context;
      }
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(Path.of(trustStore))) {
        store.load(in, password == null ? null : password.toCharArray());
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot use the trust store " + trustStore + ": " + e.getMessage(), e);
    }
  }
}
