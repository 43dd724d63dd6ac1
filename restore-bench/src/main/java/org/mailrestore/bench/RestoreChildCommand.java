package org.mailrestore.bench;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** The JVM the restore benchmark starts for the restore itself; not for direct use. */
@Command(name = "restore-child", hidden = true)
final class RestoreChildCommand implements Callable<Integer> {

  @Parameters(index = "0")
  String params;

  @Parameters(index = "1")
  String result;

  @Override
  public Integer call() throws Exception {
    RestoreRun.main(new String[] {params, result});
    return 0;
  }
}
