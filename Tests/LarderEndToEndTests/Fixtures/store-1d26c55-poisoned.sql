-- A store as Larder 1d26c55 left it after an ECB feed with a day years ahead (2031-11-26) and then
-- one at the calendar's edge (9999-12-31): it committed both, then trapped in the publication
-- calendar, and trapped again at every start. Made with that build's own binary against a plain
-- HTTP server (larder serve --rates-url http://127.0.0.1:18999/feed.xml, then two refreshes), and
-- dumped with `sqlite3 larder.sqlite .dump`. HostileUpstreamTests loads it into a cache directory.
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES('v1: meta, resources, items, rates');
INSERT INTO grdb_migrations VALUES('v2: documents');
INSERT INTO grdb_migrations VALUES('v3: rendered rate days, detected formats');
INSERT INTO grdb_migrations VALUES('v4: instants as seconds');
INSERT INTO grdb_migrations VALUES('v5: documents in index order');
CREATE TABLE IF NOT EXISTS "meta" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL);
INSERT INTO meta VALUES('format_version','1');
CREATE TABLE IF NOT EXISTS "resources" ("name" TEXT PRIMARY KEY NOT NULL, "upstream_url" TEXT NOT NULL, "format" TEXT);
INSERT INTO resources VALUES('rates','http://127.0.0.1:18999/feed.xml','ecb');
CREATE TABLE IF NOT EXISTS "items" ("resource" TEXT NOT NULL, "key" TEXT NOT NULL, "fetched_at" DOUBLE NOT NULL, "created_at" DOUBLE, "updated_at" DOUBLE, "etag" TEXT, "last_modified" TEXT, PRIMARY KEY ("resource", "key"));
INSERT INTO items VALUES('rates','feed',1795777401.8820776939,NULL,253402214400.0,NULL,'Fri, 27 Nov 2026 11:03:23 GMT');
CREATE TABLE IF NOT EXISTS "rate_sets" ("date" TEXT PRIMARY KEY NOT NULL, "base" TEXT NOT NULL, "created_at" DOUBLE, "updated_at" DOUBLE, "stored_at" DOUBLE NOT NULL, "rates_json" BLOB);
INSERT INTO rate_sets VALUES('2026-11-25','EUR',NULL,1795564800.0,1795777394.6801505088,X'7b22474250223a302e38343337302c224a5059223a3136322e34312c22555344223a312e303836327d');
INSERT INTO rate_sets VALUES('2026-11-26','EUR',NULL,1795651200.0,1795777394.6801505088,X'7b22474250223a302e38343337302c224a5059223a3136322e34312c22555344223a312e303836327d');
INSERT INTO rate_sets VALUES('2031-11-26','EUR',NULL,1953417600.0,1795777396.7686920166,X'7b22474250223a302e38343337302c224a5059223a3136322e34312c22555344223a312e303836327d');
INSERT INTO rate_sets VALUES('9999-12-31','EUR',NULL,253402214400.0,1795777401.8820776939,X'7b22474250223a302e38343337302c224a5059223a3136322e34312c22555344223a312e303836327d');
CREATE TABLE IF NOT EXISTS "rates" ("date" TEXT NOT NULL REFERENCES "rate_sets"("date") ON DELETE CASCADE, "code" TEXT NOT NULL, "name" TEXT, "value" TEXT NOT NULL, PRIMARY KEY ("date", "code")) WITHOUT ROWID;
INSERT INTO rates VALUES('2026-11-25','GBP',NULL,'0.84370');
INSERT INTO rates VALUES('2026-11-25','JPY',NULL,'162.41');
INSERT INTO rates VALUES('2026-11-25','USD',NULL,'1.0862');
INSERT INTO rates VALUES('2026-11-26','GBP',NULL,'0.84370');
INSERT INTO rates VALUES('2026-11-26','JPY',NULL,'162.41');
INSERT INTO rates VALUES('2026-11-26','USD',NULL,'1.0862');
INSERT INTO rates VALUES('2031-11-26','GBP',NULL,'0.84370');
INSERT INTO rates VALUES('2031-11-26','JPY',NULL,'162.41');
INSERT INTO rates VALUES('2031-11-26','USD',NULL,'1.0862');
INSERT INTO rates VALUES('9999-12-31','GBP',NULL,'0.84370');
INSERT INTO rates VALUES('9999-12-31','JPY',NULL,'162.41');
INSERT INTO rates VALUES('9999-12-31','USD',NULL,'1.0862');
CREATE TABLE IF NOT EXISTS "document_entries" ("name" TEXT PRIMARY KEY NOT NULL, "position" INTEGER NOT NULL, "url" TEXT NOT NULL, "size" INTEGER, "sha256" TEXT, "content_type" TEXT, "created_at" DOUBLE, "updated_at" DOUBLE);
CREATE TABLE IF NOT EXISTS "document_files" ("name" TEXT PRIMARY KEY NOT NULL, "file_name" TEXT NOT NULL UNIQUE, "size" INTEGER NOT NULL, "sha256" TEXT NOT NULL, "content_type" TEXT, "created_at" DOUBLE, "updated_at" DOUBLE, "stored_at" DOUBLE NOT NULL, "fetched_at" DOUBLE NOT NULL, "etag" TEXT, "last_modified" TEXT);
CREATE INDEX "document_entries_position" ON "document_entries"("position");
COMMIT;
