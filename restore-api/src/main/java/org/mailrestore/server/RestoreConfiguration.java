package org.mailrestore.server;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.PathFence;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.mailstore.MailstoreKind;
import org.mailrestore.mailstore.VolumeSpec;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.Restores;
import org.mailrestore.sql.Database;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Wires the plain-Java libraries into the service: the same storage, engine and metrics classes the
 * CLI uses, with settings from {@link ServerSettings}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ServerSettings.class)
class RestoreConfiguration {

  @Bean
  Concurrency concurrency(ServerSettings settings) {
    Concurrency machine = Concurrency.forMachine();
    ServerSettings.ConcurrencySettings c = settings.concurrency();
    return new Concurrency(
        c.accounts() > 0 ? c.accounts() : machine.accounts(),
        c.clustersPerAccount() > 0 ? c.clustersPerAccount() : machine.clustersPerAccount(),
        c.blobTransfers() > 0 ? c.blobTransfers() : machine.blobTransfers());
  }

  /**
   * Sizes Boot's connection pool from the restore's bounds (unless configured) and adds the JDBC
   * options the mailstore relies on, before the pool starts.
   */
  @Bean
  static BeanPostProcessor mailstorePool(Environment environment) {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessBeforeInitialization(Object bean, String name) {
        if (bean instanceof HikariDataSource pool && pool.getJdbcUrl() != null) {
          pool.setJdbcUrl(Database.jdbcUrl(pool.getJdbcUrl()));
          Database.createIfMissing(pool.getJdbcUrl(), pool.getUsername(), pool.getPassword());
          if (!environment.containsProperty("spring.datasource.hikari.maximum-pool-size")) {
            int accounts =
                environment.getProperty(
                    "mailrestore.concurrency.accounts",
                    Integer.class,
                    Concurrency.forMachine().accounts());
            Concurrency bounds =
                new Concurrency(
                    accounts > 0 ? accounts : Concurrency.forMachine().accounts(),
                    Math.max(
                        1,
                        environment.getProperty(
                            "mailrestore.concurrency.clusters-per-account",
                            Integer.class,
                            Concurrency.forMachine().clustersPerAccount())),
                    1);
            // The restore's connections (the heartbeat's among them), plus a few for the API.
            pool.setMaximumPoolSize(bounds.databaseConnections() + 3);
          }
        }
        return bean;
      }
    };
  }

  @Bean
  RestoreMetrics restoreMetrics(MeterRegistry registry) {
    return new RestoreMetrics(registry);
  }

  @Bean(destroyMethod = "close")
  S3Profiles s3Profiles(ServerSettings settings, MeterRegistry registry) {
    Map<String, S3Settings> profiles = new HashMap<>();
    settings
        .s3Profiles()
        .forEach((name, p) ->
            profiles.put(
                name,
                S3Settings.of(
                    p.endpoint() == null || p.endpoint().isBlank()
                        ? null
                        : URI.create(p.endpoint()),
                    p.region(),
                    p.accessKey(),
                    p.secretKey())));
    return new S3Profiles(profiles, registry);
  }

  /**
   * The volume restores write to, from the settings (a directory under the data dir by default).
   */
  static VolumeSpec volumeSpec(ServerSettings settings) {
    ServerSettings.VolumeSettings v = settings.volume();
    VolumeSpec.Kind kind = VolumeSpec.Kind.parse(v.kind());
    String location = v.location();
    if (location == null || location.isBlank()) {
      location = settings.dataDir().resolve("volume").toString();
    }
    if (!location.startsWith("s3://")) {
      location = Path.of(location).toAbsolutePath().normalize().toString();
    }
    return new VolumeSpec(
        v.name(),
        kind,
        location,
        BlobCompression.parse(v.compression()),
        v.compressionThreshold(),
        v.packThreshold(),
        v.s3Profile());
  }

  /**
   * Where restores write: the targets listed, each checked here so that a wrong one stops the start
   * naming its setting; else the mailstore on the volume.
   */
  static List<TargetSpec> targets(ServerSettings settings) {
    if (settings.targets().isEmpty()) {
      return List.of(MailstoreKind.of(volumeSpec(settings)));
    }
    List<TargetSpec> specs = new ArrayList<>();
    for (int i = 0; i < settings.targets().size(); i++) {
      ServerSettings.TargetSettings t = settings.targets().get(i);
      try {
        specs.add(TargetSpec.of(t.kind(), t.location(), t.options()).normalize());
      } catch (RuntimeException e) {
        throw new IllegalStateException(
            "mailrestore.targets[" + i + "] (" + t.kind() + "): " + e.getMessage(), e);
      }
    }
    return specs;
  }

  /**
   * The engine the service restores with, behind its facade, over Boot's pool: the engine's tables
   * are migrated, and the default target is opened (its tables migrated too), so the service starts
   * only with a usable target.
   */
  @Bean(destroyMethod = "close")
  Restores restores(
      DataSource dataSource,
      S3Profiles profiles,
      MeterRegistry registry,
      RestoreMetrics metrics,
      ServerSettings settings,
      Concurrency concurrency)
      throws SQLException, IOException {
    return Restores.builder()
        .dataSource(dataSource)
        .s3(profiles)
        .registry(registry)
        .metrics(metrics)
        .concurrency(concurrency)
        .instanceId(instanceId(settings))
        .leaseSeconds(settings.leaseSeconds())
        .fence(PathFence.around(settings.sources().allowedRoots()))
        .limits(settings.limits().storage())
        .defaultTargets(targets(settings))
        .listener(
            settings.notifications() == null
                ? OperationListener.NONE
                : settings.notifications().listener())
        .build();
  }

  static String instanceId(ServerSettings settings) {
    if (settings.instanceId() != null && !settings.instanceId().isBlank()) {
      return settings.instanceId();
    }
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "host";
    }
    String id = host.toLowerCase(Locale.ROOT) + "-" + UUID.randomUUID().toString().substring(0, 8);
    return id.length() > 64 ? id.substring(id.length() - 64) : id;
  }
}
