package org.mailrestore.server.api;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import java.util.ArrayList;
import java.util.List;
import org.mailrestore.kind.KindOption;
import org.mailrestore.source.SourceKind;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The published OpenAPI document's header. It names the API version (not the build's), and a
 * relative server, so that the document checked into docs/openapi.json changes only when the API
 * does.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

  /**
   * The source's shape in the document: the kinds installed, and what each reads, from the same
   * registry the service checks requests against.
   */
  @Bean
  OpenApiCustomizer sourceKinds() {
    return openApi -> {
      Schema<?> source = openApi.getComponents().getSchemas().get("SourceSpec");
      if (source == null) {
        return;
      }
      StringBuilder kinds = new StringBuilder("The source kind:");
      List<String> names = new ArrayList<>();
      for (SourceKind kind : SourceKind.installed().all()) {
        names.add(kind.name());
        kinds.append(" `").append(kind.name()).append("`: ").append(kind.description());
        if (!kind.options().isEmpty()) {
          kinds
              .append(" (options: ")
              .append(String.join(", ", kind.options().stream().map(KindOption::name).toList()))
              .append(")");
        }
        kinds.append(".");
      }
      StringSchema kind = new StringSchema();
      kind.setEnum(names);
      kind.setDescription(kinds.toString());
      source.getProperties().put("kind", kind);
      source.setRequired(List.of("kind", "location"));
      Schema<?> location = source.getProperties().get("location");
      if (location != null) {
        location.setDescription(
            "An absolute path inside an allowed root, or s3://bucket/prefix for kinds that read"
                + " S3");
      }
      Schema<?> profile = source.getProperties().get("profile");
      if (profile != null) {
        profile.setDescription("The configured S3 profile of an s3:// location");
      }
    };
  }

  @Bean
  OpenAPI mailrestoreOpenApi() {
    return new OpenAPI()
        .info(
            new Info()
                .title("mailrestore")
                .version("v1")
                .description(
                    "Restores mailboxes from backups into a Zimbra-style mailstore. Reading"
                        + " needs the VIEWER or ADMIN role; starting, cancelling and resuming"
                        + " need ADMIN. Errors are RFC 9457 problem details."))
        .servers(List.of(new Server().url("/")))
        .components(
            new Components()
                .addSecuritySchemes(
                    "token",
                    new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description("An API token from the service's configuration"))
                .addSecuritySchemes(
                    "basic", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("basic")))
        .addSecurityItem(new SecurityRequirement().addList("token"))
        .addSecurityItem(new SecurityRequirement().addList("basic"));
  }
}
