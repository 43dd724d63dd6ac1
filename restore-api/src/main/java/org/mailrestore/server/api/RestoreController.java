package org.mailrestore.server.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.FailureRecord;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationView;
import org.mailrestore.restore.PaceBody;
import org.mailrestore.restore.Page;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.RestoreRequestBody;
import org.mailrestore.restore.Restores;
import org.mailrestore.restore.Submission;
import org.mailrestore.server.ServerSettings;
import org.mailrestore.server.SourcePolicy;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Restore operations over HTTP: start, follow, cancel, resume. */
@RestController
@RequestMapping("/api/v1/restores")
@Tag(name = "restores", description = "Restore operations")
public class RestoreController {

  private final Restores restores;
  private final SourcePolicy sources;
  private final boolean mailsOwners;

  RestoreController(Restores restores, SourcePolicy sources, ServerSettings settings) {
    this.restores = restores;
    this.sources = sources;
    this.mailsOwners = settings.mailsOwners();
  }

  @PostMapping
  @Operation(
      summary = "Start a restore",
      description =
          "Answers at once with the operation (201, Location); the restore runs in the background."
              + " A retried request with the same Idempotency-Key answers 200 with the operation"
              + " it started, and starts nothing.")
  public ResponseEntity<OperationView> start(
      @Valid @RequestBody RestoreRequestBody body,
      @Parameter(description = "Makes a retried POST safe: one key, one operation")
          @RequestHeader(value = "Idempotency-Key", required = false)
          @Size(min = 1, max = 128)
          @Pattern(regexp = "[\\x21-\\x7e]+")
          String idempotencyKey)
      throws SQLException {
    RestoreRequest request = body.toRequest();
    if (request.notice().owners() && !mailsOwners) {
      throw new FieldProblems.Invalid(
          "notifyOwners",
          "the service has no SMTP server to mail the owners through"
              + " (mailrestore.notifications.smtp-host)");
    }
    RestoreRequest allowed = request.withSource(sources.check(request.source()));
    Submission submission = restores.submit(allowed, idempotencyKey, body.pace());
    return ResponseEntity.status(submission.created() ? HttpStatus.CREATED : HttpStatus.OK)
        .location(URI.create("/api/v1/restores/" + submission.id()))
        .body(restores.get(submission.id()));
  }

  @GetMapping
  @Operation(summary = "List operations, newest first")
  public Page<OperationView> list(
      @RequestParam(required = false) OperationState state,
      @RequestParam(defaultValue = "0") @Min(0) @Max(Page.MAX_PAGE) int page,
      @RequestParam(defaultValue = "20") @Min(1) @Max(Page.MAX_SIZE) int size)
      throws SQLException {
    return restores.list(state, page, size);
  }

  @GetMapping("/{id}")
  @Operation(summary = "An operation: state, phase, counters, rates, ETA")
  public OperationView get(@PathVariable String id) throws SQLException {
    return restores.get(id);
  }

  @GetMapping("/{id}/accounts")
  @Operation(summary = "The accounts of an operation and their progress")
  public List<AccountProgress> accounts(@PathVariable String id) throws SQLException {
    return restores.accounts(id);
  }

  @PutMapping("/{id}/pace")
  @Operation(
      summary = "Set how fast a restore may go (items/s, MB/s; null: no bound)",
      description =
          "Applies within seconds to a running operation, on every instance running it (each"
              + " instance holds its own part to the pace).")
  public PaceBody pace(@PathVariable String id, @Valid @RequestBody PaceBody body)
      throws SQLException {
    return PaceBody.of(restores.pace(id, body.pace()));
  }

  @GetMapping("/{id}/pace")
  @Operation(summary = "How fast a restore may go (items/s, MB/s; null: no bound)")
  public PaceBody pace(@PathVariable String id) throws SQLException {
    return PaceBody.of(restores.pace(id));
  }

  @GetMapping("/{id}/report")
  @Operation(
      summary =
          "The operation's report: per account restored, skipped and unrestored, each unrestored"
              + " item with its reason (schema in docs/service.md)")
  public OperationReport report(@PathVariable String id) throws SQLException {
    return restores.report(id);
  }

  @GetMapping("/{id}/failures")
  @Operation(summary = "What was not restored as it is in the backup, and why")
  public Page<FailureRecord> failures(
      @PathVariable String id,
      @RequestParam(defaultValue = "0") @Min(0) @Max(Page.MAX_PAGE) int page,
      @RequestParam(defaultValue = "100") @Min(1) @Max(Page.MAX_SIZE) int size)
      throws SQLException {
    return restores.failures(id, page, size);
  }

  @GetMapping("/{id}/await")
  @Operation(
      summary = "Wait for an operation to end",
      description =
          "Answers 200 when it has ended, or 202 with its current state when the timeout (ISO-8601"
              + " duration or seconds, at most 5 minutes) passes first.")
  public ResponseEntity<OperationView> await(
      @PathVariable String id, @RequestParam(defaultValue = "PT30S") String timeout)
      throws SQLException {
    OperationView view = restores.await(id, parseTimeout(timeout));
    return ResponseEntity.status(view.state().isFinished() ? HttpStatus.OK : HttpStatus.ACCEPTED)
        .body(view);
  }

  @PostMapping("/{id}/cancel")
  @Operation(
      summary = "Cancel an operation",
      description =
          "Stops new work wherever it runs; clusters in flight commit; it ends CANCELLED and can"
              + " be resumed. 202 while it stops, 200 when nothing was running it; 409 when it has"
              + " ended.")
  public ResponseEntity<OperationView> cancel(@PathVariable String id) throws SQLException {
    OperationView view = restores.cancel(id);
    return ResponseEntity.status(
            view.state() == OperationState.CANCELLED ? HttpStatus.OK : HttpStatus.ACCEPTED)
        .body(view);
  }

  @PostMapping("/{id}/resume")
  @Operation(
      summary = "Resume an operation",
      description =
          "Continues a cancelled, failed or interrupted operation from its last committed"
              + " clusters. 409 when it is running, or has completed.")
  public ResponseEntity<OperationView> resume(@PathVariable String id) throws SQLException {
    return ResponseEntity.status(HttpStatus.ACCEPTED).body(restores.resume(id));
  }

  static Duration parseTimeout(String text) {
    Duration d;
    try {
      d = text.startsWith("P") ? Duration.parse(text) : Duration.ofSeconds(Long.parseLong(text));
    } catch (RuntimeException e) {
      throw FieldErrors.of("timeout", "is not a duration (PT30S) or a number of seconds");
    }
    if (d.isNegative() || d.compareTo(Duration.ofMinutes(5)) > 0) {
      throw FieldErrors.of("timeout", "must be between 0 and 5 minutes");
    }
    return d;
  }
}
