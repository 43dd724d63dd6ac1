package org.mailrestore.server.api;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The published OpenAPI document's header. It names the API version (not the build's), and a
 * relative server, so that the document checked into docs/openapi.json changes only when the API
 * does.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

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
