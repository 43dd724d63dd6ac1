package org.mailrestore.server.api;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.mailrestore.restore.OperationView;
import org.mailrestore.restore.Restores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Operations' progress as Server-Sent Events: one reader per operation, once a second, however many
 * streams follow it, so that hundreds of open streams cost one query a second each operation. A
 * {@code progress} event carries the operation (as {@code GET /api/v1/restores/{id}}) when it
 * changed; an {@code end} event the last state, then the stream closes; a comment every 15 s keeps
 * proxies from closing an idle stream.
 */
@Component
class ProgressStreams implements DisposableBean {

  private static final Logger log = LoggerFactory.getLogger(ProgressStreams.class);
  private static final long STREAM_MILLIS = TimeUnit.HOURS.toMillis(1);
  private static final int KEEP_ALIVE_TICKS = 15;

  /** Reads an operation as it is now. */
  @FunctionalInterface
  interface Reader {
    OperationView read() throws java.sql.SQLException;
  }

  private record Followed(List<SseEmitter> emitters, AtomicReference<OperationView> last) {}

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

  /**
   * A stream of the operation's progress; it begins with the operation as it is now (as read at the
   * last tick when others already follow it: a crowd opening streams costs one read).
   */
  SseEmitter follow(String id, Reader reader) throws java.sql.SQLException {
    Followed known = followed.get(id);
    OperationView now = known != null ? known.last().get() : reader.read();
    SseEmitter emitter = new SseEmitter(STREAM_MILLIS);
    Followed f =
        followed.computeIfAbsent(
            id, k -> new Followed(new CopyOnWriteArrayList<>(), new AtomicReference<>(now)));
    emitter.onCompletion(() -> leave(id, emitter));
    emitter.onTimeout(() -> leave(id, emitter));
    emitter.onError(e -> leave(id, emitter));
    String data = json.writeValueAsString(now);
    send(emitter, "progress", id, data);
    if (now.state().isFinished()) {
      send(emitter, "end", id, data);
      emitter.complete();
    } else {
      f.emitters().add(emitter);
    }
    return emitter;
  }

  private void leave(String id, SseEmitter emitter) {
    Followed f = followed.get(id);
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
        OperationView view = restores.get(e.getKey());
        boolean changed = !sameProgress(view, f.last().getAndSet(view));
        String data = changed || view.state().isFinished() ? json.writeValueAsString(view) : null;
        for (SseEmitter emitter : f.emitters()) {
          if (view.state().isFinished()) {
            send(emitter, "progress", view.id(), data);
            send(emitter, "end", view.id(), data);
            emitter.complete();
          } else if (changed) {
            send(emitter, "progress", view.id(), data);
          } else if (tick % KEEP_ALIVE_TICKS == 0) {
            emitter.send(SseEmitter.event().comment("keep-alive"));
          }
        }
        if (view.state().isFinished()) {
          followed.remove(e.getKey(), f);
        }
      } catch (Exception failure) {
        // The database is away for a moment: the streams wait for the next tick.
        log.debug("progress of {}: {}", e.getKey(), failure.toString());
      }
    }
  }

  private static boolean sameProgress(OperationView a, OperationView b) {
    return a.state() == b.state()
        && a.phase() == b.phase()
        && Objects.equals(a.counts(), b.counts());
  }

  /** One event, its data the operation already written as JSON (once for every stream). */
  private static void send(SseEmitter emitter, String name, String id, String data) {
    try {
      emitter.send(SseEmitter.event().name(name).id(id).data(data));
    } catch (IOException | IllegalStateException e) {
      emitter.completeWithError(e); // the client went away
    }
  }

  @Override
  public void destroy() {
    ticks.shutdownNow();
    followed.values().forEach(f -> f.emitters().forEach(SseEmitter::complete));
  }
}
