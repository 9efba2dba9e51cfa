import Database from 'better-sqlite3';

/**
 * Checks a closed database file with SQLite's `PRAGMA integrity_check` (every page, index and
 * constraint) and that it holds the Store's tables. Resolves to the problems found, none = healthy.
 * Opens the file read-only, so it never changes it; fails while a server holds the file.
 */
export function checkSqliteFile(path: string): string[] {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: 100 });
  } catch (e) {
    return [`cannot open ${path}: ${e instanceof Error ? e.message : String(e)}`];
  }
  try {
    const problems = (db.pragma('integrity_check') as { integrity_check: string }[])
      .map((r) => r.integrity_check)
      .filter((r) => r !== 'ok');
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    );
    for (const t of ['log', 'meta']) if (!tables.has(t)) problems.push(`${path}: table ${t} is missing`);
    return problems;
  } catch (e) {
    return [`${path}: ${e instanceof Error ? e.message : String(e)}`];
  } finally {
    db.close();
  }
}
