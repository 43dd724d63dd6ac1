package org.mailrestore.restore;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import javax.sql.DataSource;

/**
 * A data source whose connections let a test step in before a call goes through (to kill the
 * connection, to take an account over, to refuse a statement): a fault at an exact point of a
 * restore, on the real database.
 */
public final class InterceptedDataSource {

  /** What runs before each call on a connection; it may throw in the call's place. */
  @FunctionalInterface
  public interface Hook {
    /**
     * @param connection the real connection the call is for
     * @param method the {@link Connection} method called
     * @param args its arguments (null for none)
     */
    void before(Connection connection, Method method, Object[] args) throws Exception;
  }

  private InterceptedDataSource() {}

  public static DataSource of(DataSource real, Hook hook) {
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = invoke(method, real, args);
              if (!method.getName().equals("getConnection")) {
                return result;
              }
              Connection connection = (Connection) result;
              return Proxy.newProxyInstance(
                  Connection.class.getClassLoader(),
                  new Class<?>[] {Connection.class},
                  (p, m, a) -> {
                    hook.before(connection, m, a);
                    return invoke(m, connection, a);
                  });
            });
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
