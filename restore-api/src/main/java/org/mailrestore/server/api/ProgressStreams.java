package org.mailrestore.server.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationView;
import org.mailrestore.restore.Page;
import org.mailrestore.restore.Restores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter.DataWithMediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Progress as Server-Sent Events, of an operation or of a page of the operations list: each
 * followed thing is read once a second and written as JSON once, however many streams follow it, so
 * that hundreds of open streams cost one query a second for each thing they follow. An event is
 * sent when the thing changed; an operation's stream ends with an {@code end} event once it has
 * ended; a comment every 15 s keeps proxies from closing an idle stream.
 */
@Component
class ProgressStreams implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(ProgressStreams.class);
  private static final long STREAM_MILLIS = TimeUnit.HOURS.toMillis(1);
  private static final int KEEP_ALIVE_TICKS = 15;
  private static final MediaType FRAME = new MediaType("text", "plain", StandardCharsets.UTF_8);
  private static final Set<DataWithMediaType> KEEP_ALIVE =
      Set.of(new DataWithMediaType(":keep-alive\n\n", FRAME));

  /** A followed thing as it was last read, written as JSON; {@code ended}: nothing follows. */
  private record Snapshot(String json, boolean ended) {}

  /** Reads a followed thing as it is now. */
  @FunctionalInterface
  private interface Reader {
    Snapshot read() throws SQLException;
  }

  /**
   * @param event the name of its events
   * @param id the events' id (the operation's), or null
   */
  private record Followed(
      List<SseEmitter> emitters,
      Reader reader,
      String event,
      @Nullable String id,
      AtomicReference<Snapshot> last) {}

  /** A reader's failure, carried out of {@link Map#computeIfAbsent}. */
  private static final class ReadFailed extends RuntimeException {
    ReadFailed(SQLException cause) {
      super(cause);
    }
  }

  private final Restores restores;
  private final JsonMapper json;
  private final Map<String, Followed> followed = new ConcurrentHashMap<>();
  private final ScheduledExecutorService ticks =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "progress-streams");
        t.setDaemon(true);
        return t;
      });
  private long tick;

  ProgressStreams(Restores restores, JsonMapper json) {
    this.restores = restores;
    this.json = json;
    var unused = ticks.scheduleWithFixedDelay(this::tick, 1, 1, TimeUnit.SECONDS);
  }

  /** An operation's progress: {@code progress} events (the operation), then {@code end}. */
  SseEmitter operation(String id) throws SQLException {
    return follow(
        "operation " + id,
        "progress",
        id,
        () -> {
          OperationView view = restores.get(id);
          return new Snapshot(json.writeValueAsString(view), view.state().isFinished());
        });
  }

  /** A page of the operations list: {@code page} events (the page, as the list answers it). */
  SseEmitter page(@Nullable OperationState state, int page, int size) throws SQLException {
    var unused = Page.offset(page, size); // refuses a page out of bounds before a stream is opened
    return follow(
        "page " + state + " " + page + " " + size,
        "page",
        null,
        () -> new Snapshot(json.writeValueAsString(restores.list(state, page, size)), false));
  }

  /**
   * A stream that begins with the thing as it is now: as read at the last tick when others already
   * follow it, and read once for a crowd that opens streams at once.
   */
  private SseEmitter follow(String key, String event, @Nullable String id, Reader reader)
      throws SQLException {
    Followed f;
    try {
      f =
          followed.computeIfAbsent(
              key,
              k -> {
                try {
                  return new Followed(
                      new CopyOnWriteArrayList<>(),
                      reader,
                      event,
                      id,
                      new AtomicReference<>(reader.read()));
                } catch (SQLException e) {
                  throw new ReadFailed(e);
                }
              });
    } catch (ReadFailed e) {
      throw (SQLException) e.getCause();
    }
    Snapshot now = f.last().get();
    SseEmitter emitter = new SseEmitter(STREAM_MILLIS);
    emitter.onCompletion(() -> leave(key, emitter));
    emitter.onTimeout(() -> leave(key, emitter));
    emitter.onError(e -> leave(key, emitter));
    send(emitter, frame(event, id, now.json()));
    if (now.ended()) {
      send(emitter, frame("end", id, now.json()));
      emitter.complete();
    } else {
      f.emitters().add(emitter);
    }
    return emitter;
  }

  private void leave(String key, SseEmitter emitter) {
    Followed f = followed.get(key);
    if (f != null) {
      f.emitters().remove(emitter);
    }
  }

  private void tick() {
    tick++;
    for (Map.Entry<String, Followed> e : List.copyOf(followed.entrySet())) {
      Followed f = e.getValue();
      if (f.emitters().isEmpty()) {
        followed.remove(e.getKey(), f);
        continue;
      }
      try {
        Snapshot now = f.reader().read();
        boolean changed = !now.json().equals(f.last().getAndSet(now).json());
        if (!changed && !now.ended()) {
          if (tick % KEEP_ALIVE_TICKS == 0) {
            f.emitters().forEach(emitter -> send(emitter, KEEP_ALIVE));
          }
          continue;
        }
        Set<DataWithMediaType> update = frame(f.event(), f.id(), now.json());
        Set<DataWithMediaType> end = now.ended() ? frame("end", f.id(), now.json()) : null;
        for (SseEmitter emitter : f.emitters()) {
          send(emitter, update);
          if (end != null) {
            send(emitter, end);
            emitter.complete();
          }
        }
        if (now.ended()) {
          followed.remove(e.getKey(), f);
        }
      } catch (Exception failure) {
        // The database is away for a moment: the streams wait for the next tick.
        log.debug("progress of {}: {}", e.getKey(), failure.toString());
      }
    }
  }

  /**
   * One event as the text of its frame, made once for every stream: Spring's event builder would
   * make three writes of each event for each stream.
   */
  private static Set<DataWithMediaType> frame(String name, @Nullable String id, String data) {
    // Compact JSON holds no line break, so the data is one "data:" line.
    String frame =
        "event:" + name + "\n" + (id == null ? "" : "id:" + id + "\n") + "data:" + data + "\n\n";
    return Set.of(new DataWithMediaType(frame, FRAME));
  }

  private static void send(SseEmitter emitter, Set<DataWithMediaType> frame) {
    try {
      emitter.send(frame);
    } catch (IOException | IllegalStateException e) {
      emitter.completeWithError(e); // the client went away
    }
  }

  private volatile boolean running;

  @Override
  public void start() {
    running = true;
  }

  /**
   * Ends every stream, before the web server's graceful shutdown (a later phase stops first), which
   * would otherwise wait its whole timeout for streams that end only when their client leaves.
   */
  @Override
  public void stop() {
    running = false;
    ticks.shutdownNow();
    followed.values().forEach(f -> f.emitters().forEach(SseEmitter::complete));
    followed.clear();
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return SmartLifecycle.DEFAULT_PHASE;
  }
}
