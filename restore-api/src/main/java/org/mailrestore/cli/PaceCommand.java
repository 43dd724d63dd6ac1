package org.mailrestore.cli;

import java.util.concurrent.Callable;
import org.mailrestore.restore.PaceBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mailrestore restore pace}: how fast an operation on the service may go. */
@Command(
    name = "pace",
    mixinStandardHelpOptions = true,
    description =
        "Show, or change while it runs, how fast an operation may go (applies within seconds).")
final class PaceCommand implements Callable<Integer> {
  @Parameters(paramLabel = "OPERATION", description = "The operation id")
  String id;

  @Option(names = "--max-items-per-second", description = "Items per second; 0 for no bound")
  Double items;

  @Option(names = "--max-mb-per-second", description = "Megabytes per second; 0 for no bound")
  Double megabytes;

  @Mixin ApiOptions api;

  @Override
  public Integer call() throws Exception {
    String path = "api/v1/restores/" + ApiClient.segment(id) + "/pace";
    ApiClient client = api.client();
    ApiClient.Answer answer;
    if (items == null && megabytes == null) {
      answer = client.get(path);
    } else {
      PaceBody current = client.get(path).as(PaceBody.class);
      answer =
          client.put(
              path,
              new PaceBody(
                  bound(items, current.maxItemsPerSecond()),
                  bound(megabytes, current.maxMbPerSecond())));
    }
    if (!api.printJson(answer)) {
      PaceBody pace = answer.as(PaceBody.class);
      System.out.printf(
          "operation %s: at most %s items/s, %s MB/s%n",
          id,
          pace.maxItemsPerSecond() == null ? "any" : pace.maxItemsPerSecond(),
          pace.maxMbPerSecond() == null ? "any" : pace.maxMbPerSecond());
    }
    return ExitCodes.OK;
  }

  /** The value given (0: no bound), else the current one. */
  private static Double bound(Double given, Double current) {
    if (given == null) {
      return current;
    }
    return given <= 0 ? null : given;
  }
}
