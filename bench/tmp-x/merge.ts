import SQLite from 'better-sqlite3';
const db = new SQLite(process.argv[2]!);
const total = db.prepare('select total_changes()').pluck();
const t = performance.now();
let steps = 0;
for (;;) {
  const before = total.get() as number;
  db.prepare(`insert into search_fts (search_fts, rank) values ('merge', 500)`).run();
  steps++;
  if ((total.get() as number) - before < 2) break;
}
console.log('automerge', db.prepare(`select v from search_fts_config where k = 'automerge'`).pluck().get(), 'merge steps', steps, (performance.now() - t).toFixed(0), 'ms');
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();
