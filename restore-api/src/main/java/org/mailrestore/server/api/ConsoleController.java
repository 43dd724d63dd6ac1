package org.mailrestore.server.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import org.mailrestore.kind.KindOption;
import org.mailrestore.server.ServerSettings;
import org.mailrestore.source.SourceKind;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * What a client needs to offer the right things: who is signed in and with which role, and the
 * source kinds installed with their options (the console builds its form from them, as the CLI
 * builds its flags).
 */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "session", description = "Who is signed in; what can be restored from")
public class ConsoleController {

  /**
   * The caller: a token's or a user's name, its role ({@code ADMIN} or {@code VIEWER}), and whether
   * the service can mail the restored accounts' owners (a request's {@code notifyOwners}).
   */
  public record Me(String name, String role, boolean canNotifyOwners) {}

  private final boolean mailsOwners;

  ConsoleController(ServerSettings settings) {
    this.mailsOwners = settings.mailsOwners();
  }

  /** An option of a source kind, as a form shows it. */
  public record Option(
      String name,
      String description,
      boolean required,
      String defaultValue,
      List<String> allowed) {
    static Option of(KindOption o) {
      return new Option(o.name(), o.description(), o.required(), o.defaultValue(), o.allowed());
    }
  }

  /** A source kind: its name, what its location is, whether it reads S3, its options. */
  public record SourceKindView(
      String name, String description, String location, boolean readsS3, List<Option> options) {}

  @GetMapping("/me")
  @Operation(summary = "Who is signed in, and with which role")
  public Me me(Authentication authentication) {
    String role =
        authentication.getAuthorities().stream()
                .map(GrantedAuthority::getAuthority)
                .anyMatch("ROLE_ADMIN"::equals)
            ? "ADMIN"
            : "VIEWER";
    return new Me(authentication.getName(), role, mailsOwners);
  }

  @GetMapping("/kinds/sources")
  @Operation(summary = "The source kinds installed, with their options")
  public List<SourceKindView> sourceKinds() {
    return SourceKind.installed().all().stream()
        .map(k ->
            new SourceKindView(
                k.name(),
                k.description(),
                k.location().name().toLowerCase(java.util.Locale.ROOT),
                k.readsS3(),
                k.options().stream().filter(o -> !o.secret()).map(Option::of).toList()))
        .toList();
  }
}
