package org.mailrestore.restore.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class LogContextExecutorTest {

  @AfterEach
  void clear() {
    MDC.clear();
  }

  @Test
  void aTaskOnAVirtualThreadCarriesItsSubmittersContextOrNone() throws Exception {
    try (ExecutorService executor =
        new LogContextExecutor(Executors.newVirtualThreadPerTaskExecutor())) {
      MDC.put("operation", "op-1");
      assertThat(executor.submit(() -> MDC.get("operation")).get()).isEqualTo("op-1");
      MDC.clear();
      assertThat(executor.submit(() -> MDC.getCopyOfContextMap()).get())
          .satisfiesAnyOf(m -> assertThat(m).isNull(), m -> assertThat(m).isEmpty());
    }
  }

  @Test
  void aPooledThreadGetsItsOwnContextBackAfterTheTask() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      pool.submit(() -> MDC.put("worker", "own")).get();
      ExecutorService executor = new LogContextExecutor(pool);
      MDC.put("operation", "op-2");
      assertThat(executor.submit(() -> MDC.getCopyOfContextMap()).get())
          .isEqualTo(Map.of("operation", "op-2"));
      assertThat(pool.submit(() -> MDC.getCopyOfContextMap()).get())
          .isEqualTo(Map.of("worker", "own"));
    } finally {
      pool.shutdown();
      assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
  }
}
