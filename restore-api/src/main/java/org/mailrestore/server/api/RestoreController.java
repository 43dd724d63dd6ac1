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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.mailrestore.restore.FailureRecord;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreEngine;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.bookkeeping.AccountProgress;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.mailrestore.server.OperationRunner;
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

  private static final long AWAIT_POLL_MILLIS = 200;

  private final RestoreEngine engine;
  private final OperationStore operations;
  private final Bookkeeping books;
  private final SourcePolicy sources;
  private final OperationRunner control;

  RestoreController(
      RestoreEngine engine,
      OperationStore operations,
      SourcePolicy sources,
      OperationRunner control) {
    this.engine = engine;
    this.operations = operations;
    this.books = engine.bookkeeping();
    this.sources = sources;
    this.control = control;
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
    RestoreRequest allowed = request.withSource(sources.check(request.source()));
    RestoreEngine.Submission submission = engine.submission(allowed, idempotencyKey);
    if (body.pace().isLimited()) {
      books.throttles().set(submission.id(), body.pace());
    }
    control.run(submission.id());
    OperationView view = view(submission.id());
    return ResponseEntity.status(submission.created() ? HttpStatus.CREATED : HttpStatus.OK)
        .location(URI.create("/api/v1/restores/" + submission.id()))
        .body(view);
  }

  @GetMapping
  @Operation(summary = "List operations, newest first")
  public PageView<OperationView> list(
      @RequestParam(required = false) OperationState state,
      @RequestParam(defaultValue = "0") @Min(0) int page,
      @RequestParam(defaultValue = "20") @Min(1) @Max(500) int size)
      throws SQLException {
    List<OperationView> views = new ArrayList<>();
    Instant now = Instant.now();
    for (String id : operations.list(state, page * size, size + 1)) {
      operations.find(id).ifPresent(s -> views.add(OperationView.of(s, now)));
    }
    return PageView.of(views, page, size);
  }

  @GetMapping("/{id}")
  @Operation(summary = "An operation: state, phase, counters, rates, ETA")
  public OperationView get(@PathVariable String id) throws SQLException {
    return view(id);
  }

  @GetMapping("/{id}/accounts")
  @Operation(summary = "The accounts of an operation and their progress")
  public List<AccountProgress> accounts(@PathVariable String id) throws SQLException {
    require(id);
    return books.accounts().list(id);
  }

  @PutMapping("/{id}/pace")
  @Operation(
      summary = "Set how fast a restore may go (items/s, MB/s; null: no bound)",
      description =
          "Applies within seconds to a running operation, on every instance running it (each"
              + " instance holds its own part to the pace).")
  public PaceBody pace(@PathVariable String id, @Valid @RequestBody PaceBody body)
      throws SQLException {
    require(id);
    books.throttles().set(id, body.pace());
    return PaceBody.of(books.throttles().get(id));
  }

  @GetMapping("/{id}/pace")
  @Operation(summary = "How fast a restore may go (items/s, MB/s; null: no bound)")
  public PaceBody pace(@PathVariable String id) throws SQLException {
    require(id);
    return PaceBody.of(books.throttles().get(id));
  }

  @GetMapping("/{id}/report")
  @Operation(
      summary =
          "The operation's report: per account restored, skipped and unrestored, each unrestored"
              + " item with its reason (schema in docs/service.md)")
  public OperationReport report(@PathVariable String id) throws SQLException {
    require(id);
    return OperationReport.of(books, id).orElseThrow();
  }

  @GetMapping("/{id}/failures")
  @Operation(summary = "What was not restored as it is in the backup, and why")
  public PageView<FailureRecord> failures(
      @PathVariable String id,
      @RequestParam(defaultValue = "0") @Min(0) int page,
      @RequestParam(defaultValue = "100") @Min(1) @Max(1000) int size)
      throws SQLException {
    require(id);
    return PageView.of(books.failures().list(id, page * size, size + 1), page, size);
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
    Duration limit = parseTimeout(timeout);
    long deadline = System.nanoTime() + limit.toNanos();
    OperationSummary s = require(id);
    while (!s.state().isFinished() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(AWAIT_POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      s = require(id);
    }
    return ResponseEntity.status(s.state().isFinished() ? HttpStatus.OK : HttpStatus.ACCEPTED)
        .body(OperationView.of(s, Instant.now()));
  }

  @PostMapping("/{id}/cancel")
  @Operation(
      summary = "Cancel an operation",
      description =
          "Stops new work wherever it runs; clusters in flight commit; it ends CANCELLED and can"
              + " be resumed. 202 while it stops, 200 when nothing was running it; 409 when it has"
              + " ended.")
  public ResponseEntity<OperationView> cancel(@PathVariable String id) throws SQLException {
    require(id);
    engine.cancel(id);
    OperationView view = view(id);
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
    OperationSummary s = require(id);
    if (s.state() == OperationState.COMPLETED || s.state() == OperationState.PARTIAL) {
      throw new IllegalStateException(
          "operation " + id + " ended " + s.state() + "; restoring again is a new operation");
    }
    if (control.isActive(id) || operations.hasLiveCoordinator(id)) {
      throw new IllegalStateException("operation " + id + " is running");
    }
    operations.requeue(id);
    control.run(id);
    return ResponseEntity.status(HttpStatus.ACCEPTED).body(view(id));
  }

  private OperationView view(String id) throws SQLException {
    return OperationView.of(require(id), Instant.now());
  }

  private OperationSummary require(String id) throws SQLException {
    return operations.find(id).orElseThrow(() -> new NoSuchElementException("no operation " + id));
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
