-- A table for the migrations' own test.
CREATE TABLE first_test (id INT NOT NULL PRIMARY KEY);
