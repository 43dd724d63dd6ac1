package org.mailrestore.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mailrestore restore report}: an operation's report, from the service. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description =
        "An operation's report: per account restored, skipped and unrestored, each unrestored"
            + " item with its reason.")
final class ReportCommand implements Callable<Integer> {
  @Parameters(paramLabel = "OPERATION", description = "The operation id")
  String id;

  @Option(names = "--out", description = "Also write the report here as JSON")
  java.nio.file.Path out;

  @Mixin ApiOptions api;

  @Override
  public Integer call() throws Exception {
    ApiClient.Answer answer =
        api.client().get("api/v1/restores/" + ApiClient.segment(id) + "/report");
    if (out != null) {
      java.nio.file.Files.writeString(out, answer.body());
    }
    if (!api.printJson(answer)) {
      Report.report(System.out, answer.as(org.mailrestore.restore.OperationReport.class));
    }
    return ExitCodes.OK;
  }
}
