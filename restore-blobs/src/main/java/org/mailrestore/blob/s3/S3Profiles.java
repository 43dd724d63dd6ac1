package org.mailrestore.blob.s3;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 services the configuration names. Requests name a profile, never credentials; one client
 * per profile, built on first use and shared.
 */
public final class S3Profiles implements AutoCloseable {

  private final Map<String, S3Settings> settings;
  private final MeterRegistry registry;
  private final Map<String, S3Client> clients = new ConcurrentHashMap<>();

  public S3Profiles(Map<String, S3Settings> settings, MeterRegistry registry) {
    this.settings = Map.copyOf(settings);
    this.registry = registry;
  }

  public static S3Profiles none(MeterRegistry registry) {
    return new S3Profiles(Map.of(), registry);
  }

  public boolean has(String profile) {
    return settings.containsKey(profile);
  }

  /** The client of a profile. */
  public S3Client client(String profile) {
    S3Settings s = settings.get(profile);
    if (s == null) {
      throw new IllegalArgumentException(
          "no S3 profile '"
              + profile
              + "' is configured"
              + (settings.isEmpty()
                  ? ""
                  : " (known: " + String.join(", ", new TreeSet<>(settings.keySet())) + ")"));
    }
    return clients.computeIfAbsent(profile, p -> S3Clients.create(s, new S3Metrics(registry)));
  }

  public java.util.Set<String> names() {
    return settings.keySet();
  }

  @Override
  public void close() {
    clients.values().forEach(S3Client::close);
    clients.clear();
  }
}
