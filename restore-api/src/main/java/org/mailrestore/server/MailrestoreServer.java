package org.mailrestore.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The REST service: {@code mailrestore serve}. Settings come from {@code application.yaml}
 * (defaults in the jar; override with a file beside it, the environment or arguments).
 */
@SpringBootApplication
public class MailrestoreServer {

  /** Starts the service; returns once it is up (it runs until stopped). */
  public static ConfigurableApplicationContext start(String... args) {
    SpringApplication app = new SpringApplication(MailrestoreServer.class);
    app.setMainApplicationClass(MailrestoreServer.class);
    app.setDefaultProperties(java.util.Map.of("logging.config", "classpath:logback-server.xml"));
    return app.run(args);
  }

  public static void main(String[] args) {
    start(args);
  }
}
