package org.mailrestore.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.mailrestore.mail.Json;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.FailureRecord;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationView;
import org.mailrestore.restore.RestoreRequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/** The {@code restore} commands that talk to a running service over its REST API. */
final class RestoreApiCommands {

  private RestoreApiCommands() {}

  private static OperationView view(ApiClient.Answer answer) {
    return answer.as(OperationView.class);
  }

  /**
   * Prints a page of the API ({@code items}, {@code hasMore}): the items through {@code render}, or
   * {@code none} when there are none, and how to ask for the next page.
   */
  private static <T> void printPage(
      ApiClient.Answer answer, Class<T[]> type, String none, int page, Consumer<List<T>> render) {
    JsonNode body = answer.json();
    List<T> items = List.of(Json.MAPPER.treeToValue(body.path("items"), type));
    if (items.isEmpty()) {
      System.out.println(none);
    }
    render.accept(items);
    if (body.path("hasMore").asBoolean()) {
      System.out.println("  ... more with --page " + (page + 1));
    }
  }

  @Command(
      name = "start",
      mixinStandardHelpOptions = true,
      description =
          "Start a restore on the service; prints its operation id at once (with --watch, then"
              + " follows it to the end).")
  static final class Start implements Callable<Integer> {
    @Mixin SourceOptions source;

    @Mixin RestoreOptions restore;

    @Option(
        names = "--idempotency-key",
        description = "Makes a retried start safe: one key, one operation")
    String idempotencyKey;

    @Option(names = "--watch", description = "Follow the operation until it ends")
    boolean watch;

    @Mixin ApiOptions api;

    @Override
    public Integer call() throws Exception {
      ApiClient client = api.client();
      RestoreRequestBody body =
          RestoreRequestBody.asking(restore.request(source.source()), restore.pace());
      Map<String, String> headers = new HashMap<>();
      if (idempotencyKey != null) {
        headers.put("Idempotency-Key", idempotencyKey);
      }
      ApiClient.Answer answer = client.post("api/v1/restores", body, headers);
      OperationView v = view(answer);
      if (!api.printJson(answer)) {
        System.out.println("operation " + v.id());
      }
      return watch ? Watch.follow(client, v.id(), Duration.ofSeconds(10), api.json) : ExitCodes.OK;
    }
  }

  @Command(
      name = "watch",
      mixinStandardHelpOptions = true,
      description =
          "Follow an operation to its end: a live progress line on a terminal, a plain line every"
              + " --every seconds otherwise; exits 0 when it completed, 1 when partial, 3 else.")
  static final class Watch implements Callable<Integer> {
    /** How long a watch waits for an unavailable service before it gives up. */
    private static final Duration WATCH_PATIENCE = Duration.ofMinutes(10);

    @Parameters(paramLabel = "OPERATION", description = "The operation id")
    String id;

    @Option(
        names = "--every",
        defaultValue = "10",
        description = "Seconds between lines when not on a terminal (default: ${DEFAULT-VALUE})")
    int every;

    @Mixin ApiOptions api;

    @Override
    public Integer call() throws Exception {
      return follow(api.client(), id, Duration.ofSeconds(Math.max(1, every)), api.json);
    }

    static int follow(ApiClient client, String id, Duration every, boolean json) {
      Progress progress = new Progress(System.out, Progress.onTerminal(), every);
      long unavailableSince = 0;
      while (true) {
        // The service holds the request until the operation ends or a second passes.
        ApiClient.Answer answer;
        try {
          answer = client.get("api/v1/restores/" + ApiClient.segment(id) + "/await?timeout=PT1S");
          unavailableSince = 0;
        } catch (ApiClient.ApiException e) {
          // A restart of the service or of its database: the restore goes on, so does the watch.
          if (e.exitCode() != ExitCodes.UNREACHABLE) {
            throw e;
          }
          long now = System.nanoTime();
          if (unavailableSince == 0) {
            unavailableSince = now;
            System.err.println(e.getMessage() + "; still watching");
          } else if (now - unavailableSince > WATCH_PATIENCE.toNanos()) {
            throw e;
          }
          pause();
          continue;
        }
        OperationView v = view(answer);
        if (v.state().isFinished()) {
          progress.end(v);
          if (json) {
            System.out.println(answer.body());
          } else {
            Report.operation(System.out, v);
          }
          return RestoreCommand.exitCode(v.state());
        }
        progress.update(v);
      }
    }

    private static void pause() {
      try {
        Thread.sleep(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ApiClient.ApiException(ExitCodes.FAILED, "interrupted");
      }
    }
  }

  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description =
          "Show an operation; exits as watch does when it has ended (0 completed, 1 partial, 3"
              + " failed or cancelled), 8 while it has not.")
  static final class Status implements Callable<Integer> {
    @Parameters(paramLabel = "OPERATION", description = "The operation id")
    String id;

    @Mixin ApiOptions api;

    @Override
    public Integer call() throws Exception {
      ApiClient.Answer answer = api.client().get("api/v1/restores/" + ApiClient.segment(id));
      if (!api.printJson(answer)) {
        Report.operation(System.out, view(answer));
      }
      OperationState state = view(answer).state();
      return state.isFinished() ? RestoreCommand.exitCode(state) : ExitCodes.NOT_ENDED;
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List operations, newest first.")
  static final class ListOperations implements Callable<Integer> {
    @Option(names = "--state", description = "Only operations in this state (RUNNING, ...)")
    OperationState state;

    @Option(names = "--page", defaultValue = "0", description = "Page, from 0")
    int page;

    @Option(names = "--size", defaultValue = "20", description = "Per page (default: 20)")
    int size;

    @Mixin ApiOptions api;

    @Override
    public Integer call() throws Exception {
      String query = "?page=" + page + "&size=" + size + (state == null ? "" : "&state=" + state);
      ApiClient.Answer answer = api.client().get("api/v1/restores" + query);
      if (!api.printJson(answer)) {
        printPage(
            answer,
            OperationView[].class,
            "no operations",
            page,
            views -> views.forEach(v -> Report.operationLine(System.out, v)));
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "accounts",
      mixinStandardHelpOptions = true,
      description = "The accounts of an operation and their progress.")
  static final class Accounts implements Callable<Integer> {
    @Parameters(paramLabel = "OPERATION", description = "The operation id")
    String id;

    @Mixin ApiOptions api;

    @Override
    public Integer call() throws Exception {
      ApiClient.Answer answer =
          api.client().get("api/v1/restores/" + ApiClient.segment(id) + "/accounts");
      if (!api.printJson(answer)) {
        Report.accounts(System.out, List.of(answer.as(AccountProgress[].class)), true);
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "failures",
      mixinStandardHelpOptions = true,
      description = "What an operation could not restore as it is in the backup, and why.")
  static final class Failures implements Callable<Integer> {
    @Parameters(paramLabel = "OPERATION", description = "The operation id")
    String id;

    @Option(names = "--page", defaultValue = "0", description = "Page, from 0")
    int page;

    @Option(names = "--size", defaultValue = "100", description = "Per page (default: 100)")
    int size;

    @Mixin ApiOptions api;

    @Override
    public Integer call() throws Exception {
      ApiClient.Answer answer =
          api.client()
              .get(
                  "api/v1/restores/"
                      + ApiClient.segment(id)
                      + "/failures?page="
                      + page
                      + "&size="
                      + size);
      if (!api.printJson(answer)) {
        printPage(
            answer,
            FailureRecord[].class,
            "no failures",
            page,
            failures -> Report.failures(System.out, failures, failures.size()));
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "cancel",
      mixinStandardHelpOptions = true,
      description =
          "Stop an operation (clusters in flight commit first; resume continues it), or with"
              + " --all every queued or running one.")
  static final class Cancel implements Callable<Integer> {
    @Parameters(paramLabel = "OPERATION", arity = "0..1", description = "The operation id")
    String id;

    @Option(
        names = "--all",
        description = "Every operation that is queued or running now (an emergency stop)")
    boolean all;

    @Mixin ApiOptions api;

    @Override
    public Integer call() throws Exception {
      if (all == (id != null)) {
        throw new IllegalArgumentException("give an operation id or --all, not both or neither");
      }
      ApiClient client = api.client();
      if (!all) {
        return cancel(client, id, false);
      }
      List<String> ids = new ArrayList<>();
      for (OperationState state : List.of(OperationState.RUNNING, OperationState.QUEUED)) {
        for (int page = 0; ; page++) {
          JsonNode body =
              client.get("api/v1/restores?state=" + state + "&size=100&page=" + page).json();
          for (JsonNode item : body.path("items")) {
            ids.add(item.path("id").asString());
          }
          if (!body.path("hasMore").asBoolean()) {
            break;
          }
        }
      }
      if (ids.isEmpty() && !api.json) {
        System.out.println("no operation is queued or running");
      }
      for (String each : ids) {
        cancel(client, each, true);
      }
      return ExitCodes.OK;
    }

    /** Cancels one; with {@code quiet}, an operation that ended meanwhile is not an error. */
    private int cancel(ApiClient client, String operation, boolean quiet) {
      ApiClient.Answer answer;
      try {
        answer =
            client.post(
                "api/v1/restores/" + ApiClient.segment(operation) + "/cancel", null, Map.of());
      } catch (ApiClient.ApiException e) {
        if (quiet && e.exitCode() == ExitCodes.CONFLICT) {
          System.out.println("operation " + operation + " ended before it could be cancelled");
          return ExitCodes.OK;
        }
        throw e;
      }
      if (!api.printJson(answer)) {
        System.out.println(
            answer.status() == 200
                ? "operation " + operation + " cancelled (nothing was running it)"
                : "operation " + operation + ": cancel requested; it stops within seconds");
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "resume",
      mixinStandardHelpOptions = true,
      description = "Resume a cancelled, failed or interrupted operation from its last clusters.")
  static final class Resume implements Callable<Integer> {
    @Parameters(paramLabel = "OPERATION", description = "The operation id")
    String id;

    @Option(names = "--watch", description = "Follow the operation until it ends")
    boolean watch;

    @Mixin ApiOptions api;

    @Override
    public Integer call() throws Exception {
      ApiClient client = api.client();
      ApiClient.Answer answer =
          client.post("api/v1/restores/" + ApiClient.segment(id) + "/resume", null, Map.of());
      if (!api.printJson(answer)) {
        System.out.println("operation " + id + " resumed");
      }
      return watch ? Watch.follow(client, id, Duration.ofSeconds(10), api.json) : ExitCodes.OK;
    }
  }
}
