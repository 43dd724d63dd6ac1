CREATE TABLE migrations_test_ok (id INT);
THIS IS NOT SQL;
