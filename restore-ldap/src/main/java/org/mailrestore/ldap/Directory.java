package org.mailrestore.ldap;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPConnectionPool;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.OperationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.RootDSE;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.StartTLSPostConnectProcessor;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.ldap.sdk.schema.Schema;
import com.unboundid.util.ssl.HostNameSSLSocketVerifier;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.mailrestore.destination.ProvisioningRefusedException;

/**
 * The directory's connections (a pool, bound as the restore's administrator) and the few operations
 * phase 1 needs. A result the directory gives for one entry (a schema violation, insufficient
 * access, a naming conflict) becomes a {@link ProvisioningRefusedException} with its words; a lost
 * connection or a busy server stays an {@link IOException}.
 */
final class Directory implements AutoCloseable {

  private static final String START_TLS_OID = "1.3.6.1.4.1.1466.20037";

  /** How to secure a connection to ldap:// (ldaps:// is TLS from its first byte). */
  enum StartTls {
    WHEN_OFFERED,
    REQUIRED,
    NEVER;

    static StartTls parse(String value) {
      return valueOf(value.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
    }
  }

  private final LDAPConnectionPool pool;
  private final String where;
  private final Schema schema;

  private Directory(LDAPConnectionPool pool, String where, Schema schema) {
    this.pool = pool;
    this.where = where;
    this.schema = schema;
  }

  /**
   * Connects and binds.
   *
   * @throws IOException saying why the directory cannot be used (unreachable, wrong credentials, no
   *     TLS where it is required, no schema to read)
   */
  static Directory connect(
      LdapEndpoint endpoint,
      StartTls startTls,
      SSLContext tls,
      String bindDn,
      String password,
      int connections)
      throws IOException {
    String where = endpoint.toString();
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    options.setConnectTimeoutMillis(10_000);
    options.setResponseTimeoutMillis(120_000);
    // One request at a time per connection: no reader thread to hand each response over.
    options.setUseSynchronousMode(true);
    options.setSSLSocketVerifier(new HostNameSSLSocketVerifier(true));
    LDAPConnection first = null;
    try {
      first =
          endpoint.implicitTls()
              ? new LDAPConnection(
                  tls.getSocketFactory(), options, endpoint.host(), endpoint.port())
              : new LDAPConnection(options, endpoint.host(), endpoint.port());
      StartTLSPostConnectProcessor secure = null;
      if (!endpoint.implicitTls() && startTls != StartTls.NEVER) {
        RootDSE root = first.getRootDSE();
        boolean offered = root != null && root.supportsExtendedOperation(START_TLS_OID);
        if (offered) {
          ExtendedResult result;
          try {
            result = first.processExtendedOperation(new StartTLSExtendedRequest(tls));
          } catch (LDAPException e) {
            throw new IOException(where + ": StartTLS failed: " + describe(e) + cause(e), e);
          }
          if (!ResultCode.SUCCESS.equals(result.getResultCode())) {
            throw new IOException(
                where + " refused StartTLS: " + describe(result.getResultCode(), result));
          }
          secure = new StartTLSPostConnectProcessor(tls);
        } else if (startTls == StartTls.REQUIRED) {
          throw new IOException(
              where + " does not offer StartTLS, and --ldap-starttls required asks for it");
        }
      }
      first.bind(new SimpleBindRequest(bindDn, password));
      Schema schema = first.getSchema();
      if (schema == null) {
        throw new IOException("cannot read the schema of " + where + " (its subschema entry)");
      }
      LDAPConnectionPool pool = new LDAPConnectionPool(first, 1, connections, secure);
      pool.setRetryFailedOperationsDueToInvalidConnections(EnumSet.allOf(OperationType.class));
      first = null; // the pool has it
      return new Directory(pool, where, schema);
    } catch (LDAPException e) {
      if (ResultCode.INVALID_CREDENTIALS.equals(e.getResultCode())) {
        throw new IOException(
            where
                + " refused the bind as "
                + bindDn
                + ": invalid credentials (MAILRESTORE_LDAP_BIND_DN, MAILRESTORE_LDAP_PASSWORD)",
            e);
      }
      throw new IOException("cannot use " + where + ": " + describe(e) + cause(e), e);
    } finally {
      if (first != null) {
        first.close();
      }
    }
  }

  String describe() {
    return where;
  }

  /** Whether the directory refused an add because the entry exists. */
  static boolean alreadyExists(ProvisioningRefusedException e) {
    return e.getCause() instanceof LDAPException l
        && ResultCode.ENTRY_ALREADY_EXISTS.equals(l.getResultCode());
  }

  /** An entry's DN, parsed (ours are built from parts; the directory's it has parsed itself). */
  static DN dn(Entry entry) throws ProvisioningRefusedException {
    try {
      return entry.getParsedDN();
    } catch (LDAPException e) {
      throw new ProvisioningRefusedException(
          "the directory named an entry with a DN that cannot be parsed: " + entry.getDN(), e);
    }
  }

  Schema schema() {
    return schema;
  }

  Optional<Entry> get(DN dn, String... attributes) throws IOException {
    try {
      return Optional.ofNullable(pool.getEntry(dn.toString(), attributes));
    } catch (LDAPException e) {
      throw failure("read " + dn, e);
    }
  }

  List<SearchResultEntry> search(DN base, Filter filter, String... attributes) throws IOException {
    try {
      SearchResult result = pool.search(base.toString(), SearchScope.SUB, filter, attributes);
      return result.getSearchEntries();
    } catch (LDAPException e) {
      if (ResultCode.NO_SUCH_OBJECT.equals(e.getResultCode())) {
        return List.of(); // the base is not there yet: nothing under it either
      }
      throw failure("search " + filter + " under " + base, e);
    }
  }

  /**
   * Every entry under the base that matches, or null when there are more than {@code limit} (or the
   * directory limits this bind's searches below that).
   */
  @org.jspecify.annotations.Nullable
  List<SearchResultEntry> searchAll(DN base, Filter filter, int limit, String... attributes)
      throws IOException {
    try {
      com.unboundid.ldap.sdk.SearchRequest request =
          new com.unboundid.ldap.sdk.SearchRequest(
              base.toString(), SearchScope.SUB, filter, attributes);
      request.setSizeLimit(limit + 1);
      SearchResult result = pool.search(request);
      return result.getEntryCount() > limit ? null : result.getSearchEntries();
    } catch (LDAPException e) {
      if (ResultCode.SIZE_LIMIT_EXCEEDED.equals(e.getResultCode())
          || ResultCode.NO_SUCH_OBJECT.equals(e.getResultCode())) {
        return ResultCode.NO_SUCH_OBJECT.equals(e.getResultCode()) ? List.of() : null;
      }
      throw failure("search " + filter + " under " + base, e);
    }
  }

  void add(Entry entry) throws IOException {
    try {
      pool.add(entry);
    } catch (LDAPException e) {
      throw failure("add " + entry.getDN(), e);
    }
  }

  void modify(DN dn, List<Modification> changes) throws IOException {
    if (changes.isEmpty()) {
      return;
    }
    try {
      pool.modify(dn.toString(), changes);
    } catch (LDAPException e) {
      throw failure("modify " + dn, e);
    }
  }

  /**
   * The directory's answer as an exception: its refusal of this one entry, or a fault of the
   * connection. Values are never quoted (a password hash could be one).
   */
  IOException failure(String what, LDAPException e) {
    ResultCode code = e.getResultCode();
    boolean transient_ =
        !ResultCode.isConnectionUsable(code)
            || ResultCode.BUSY.equals(code)
            || ResultCode.UNAVAILABLE.equals(code)
            || ResultCode.TIMEOUT.equals(code)
            || ResultCode.TIME_LIMIT_EXCEEDED.equals(code);
    String message = where + " could not " + what + ": " + describe(e);
    return transient_ ? new IOException(message, e) : new ProvisioningRefusedException(message, e);
  }

  /** What lies under a client-side error (a certificate not trusted, a refused connection). */
  private static String cause(LDAPException e) {
    Throwable root = e.getCause();
    while (root != null && root.getCause() != null) {
      root = root.getCause();
    }
    return root == null || root.getMessage() == null ? "" : " (" + root.getMessage() + ")";
  }

  private static String describe(LDAPException e) {
    return describe(e.getResultCode(), e.getDiagnosticMessage());
  }

  private static String describe(ResultCode code, ExtendedResult result) {
    return describe(code, result.getDiagnosticMessage());
  }

  private static String describe(ResultCode code, String diagnostic) {
    return code.getName()
        + " ("
        + code.intValue()
        + ")"
        + (diagnostic == null || diagnostic.isBlank() ? "" : ": " + diagnostic);
  }

  @Override
  public void close() {
    pool.close();
  }
}
