package org.mailrestore.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DatabaseTest {

  @Test
  void theDatabaseOfAUrlIsItsPathBeforeTheOptions() {
    assertThat(Database.databaseName("jdbc:mariadb://127.0.0.1:3306/mailstore?user=root"))
        .contains("mailstore");
    assertThat(Database.databaseName("jdbc:mariadb://db1:3306,db2:3306/ms")).contains("ms");
    assertThat(Database.databaseName("jdbc:mariadb://127.0.0.1:3306/?user=root")).isEmpty();
    assertThat(Database.databaseName("jdbc:mariadb://127.0.0.1:3306")).isEmpty();
  }

  @Test
  void theServerUrlKeepsTheOptionsAndDropsTheDatabase() {
    assertThat(Database.serverUrl("jdbc:mariadb://h:3306/mailstore?user=root&a=b"))
        .isEqualTo("jdbc:mariadb://h:3306/?user=root&a=b");
    assertThat(Database.serverUrl("jdbc:mariadb://h:3306/mailstore"))
        .isEqualTo("jdbc:mariadb://h:3306/");
  }
}
