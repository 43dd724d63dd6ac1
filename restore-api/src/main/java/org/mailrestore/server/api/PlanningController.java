package org.mailrestore.server.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.Page;
import org.mailrestore.restore.ReadCounter;
import org.mailrestore.restore.RestorePlan;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.RestoreRequestBody;
import org.mailrestore.restore.Restores;
import org.mailrestore.restore.SourceInspection;
import org.mailrestore.server.SourcePolicy;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.verify.VerifyReport;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Before and after a restore, for every client (the CLI, the console, scripts): what a source
 * holds, what a restore would do, whether what an operation restored is what its source holds, and
 * its progress as it happens. The same input rules and roles as the rest of the API: reading is for
 * viewers, anything that opens a source is for admins.
 */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "planning", description = "Inspect a source, dry-run a restore, verify, follow")
public class PlanningController {

  private final Restores restores;
  private final SourcePolicy sources;
  private final ProgressStreams streams;

  PlanningController(Restores restores, SourcePolicy sources, ProgressStreams streams) {
    this.restores = restores;
    this.sources = sources;
    this.streams = streams;
  }

  /** A source to inspect: as a restore names it. */
  public record InspectBody(@NotNull @Valid SourceSpec source) {}

  /** Which accounts to verify: by address; none for those the operation selected. */
  public record VerifyBody(
      @Size(max = RestoreRequestBody.MAX_NAMES)
          @Nullable List<@NotNull @Size(min = 1, max = 255) String> accounts) {}

  @PostMapping("/sources/inspect")
  @Operation(
      summary = "What a source holds",
      description =
          "Its accounts with their items by type and bytes, the time range a point-in-time restore"
              + " can reach, and what cannot be read. Reads the source; writes nothing.")
  public SourceInspection inspect(@Valid @RequestBody InspectBody body) throws SQLException {
    return unreadable(() -> restores.inspect(sources.check(body.source())));
  }

  @PostMapping("/restores/dry-run")
  @Operation(
      summary = "What a restore would do",
      description =
          "The same body as a restore. For each account: what it would become in the target"
              + " (created, merged, replaced, skipped, renamed), its items by type and bytes."
              + " Reads the source and the target; writes nothing.")
  public RestorePlan dryRun(@Valid @RequestBody RestoreRequestBody body)
      throws SQLException, IOException {
    RestoreRequest request = body.toRequest();
    RestoreRequest allowed = request.withSource(sources.check(request.source()));
    return unreadable(() -> restores.dryRun(allowed));
  }

  @PostMapping("/restores/{id}/verify")
  @Operation(
      summary = "Compare what an operation restored with its source",
      description =
          "As the operation restored it: its point in time, its accounts under the names it gave"
              + " them, its targets; the items its report lists as not restored are excused."
              + " Answers when the comparison is done.")
  public VerifyReport verify(
      @PathVariable String id, @Valid @RequestBody(required = false) @Nullable VerifyBody body)
      throws SQLException, IOException {
    Set<String> accounts =
        body == null || body.accounts() == null ? Set.of() : new TreeSet<>(body.accounts());
    return unreadable(() -> restores.verifyOperation(id, accounts, true, new ReadCounter()));
  }

  @GetMapping(path = "/restores/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
  @Operation(
      summary = "An operation's progress as Server-Sent Events",
      description =
          "A progress event (the operation, as GET /api/v1/restores/{id}) at once and whenever it"
              + " changes, at most once a second; an end event when it has ended, then the stream"
              + " closes. A comment every 15 s keeps it open through proxies.")
  public SseEmitter events(@PathVariable String id) throws SQLException {
    return streams.operation(id);
  }

  @GetMapping(path = "/restores/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
  @Operation(
      summary = "A page of the operations list as Server-Sent Events",
      description =
          "A page event (the page, as GET /api/v1/restores with the same parameters) at once and"
              + " whenever it changes, at most once a second, for as long as the stream stays"
              + " open (at most an hour: open it again). A comment every 15 s keeps it open"
              + " through proxies.")
  public SseEmitter pageEvents(
      @RequestParam(required = false) OperationState state,
      @RequestParam(defaultValue = "0") @Min(0) @Max(Page.MAX_PAGE) int page,
      @RequestParam(defaultValue = "20") @Min(1) @Max(Page.MAX_SIZE) int size)
      throws SQLException {
    return streams.page(state, page, size);
  }

  /** What reads a source or a target. */
  @FunctionalInterface
  private interface Reading<T> {
    T read() throws SQLException, IOException;
  }

  /** A source or target that cannot be read is the request's problem (422), said plainly. */
  private static <T> T unreadable(Reading<T> reading) throws SQLException {
    try {
      return reading.read();
    } catch (IOException | org.mailrestore.source.SourceFormatException e) {
      throw new SourceUnreadableException(e.getMessage(), e);
    }
  }
}
