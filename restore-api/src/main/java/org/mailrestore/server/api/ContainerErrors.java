package org.mailrestore.server.api;

import org.apache.catalina.Valve;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * Replaces the container's error page (HTML) with {@link ProblemErrorReportValve}. Runs after
 * Spring Boot's own customizer, which adds a plain error report valve of its own.
 */
@Component
class ContainerErrors
    implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

  @Override
  public void customize(TomcatServletWebServerFactory factory) {
    factory.addContextCustomizers(context -> {
      var host = context.getParent();
      for (Valve valve : host.getPipeline().getValves()) {
        if (valve instanceof ErrorReportValve && !(valve instanceof ProblemErrorReportValve)) {
          host.getPipeline().removeValve(valve);
        }
      }
      if (host instanceof org.apache.catalina.core.StandardHost standard) {
        standard.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
      }
      host.getPipeline().addValve(new ProblemErrorReportValve());
    });
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }
}
