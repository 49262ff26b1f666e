//! `--data DIR`: the run kept across restarts, in an embedded database
//! (redb, one file `DIR/queuelab.redb`).
//!
//! The engine is deterministic, so the run is kept as what made it: the
//! scenario's text and the options (seed, region, account, the moment
//! virtual time 0 stands for), every external call at its virtual
//! moment, and the clock's last anchor. Starting again makes the calls
//! again (`Host::make_again`) and lets virtual time catch up with the
//! wall clock, so the queues are what they would be had the server never
//! stopped. Every write is committed with redb's immediate durability
//! (written and flushed to disk) before any of its calls is answered.

use std::path::Path;

use queuelab_host::{DispatchOptions, PlaygroundOptions};
use redb::{Database, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};
use serde::{Deserialize, Serialize};

const META: TableDefinition<&str, &str> = TableDefinition::new("meta");
const CALLS: TableDefinition<u64, &str> = TableDefinition::new("calls");

/// The database's file in `--data DIR`.
pub const FILE_NAME: &str = "queuelab.redb";

/// One external call, as the run received it.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct StoredCall {
    pub t: u64,
    pub target: String,
    /// `None` for a request too large to read.
    pub body: Option<String>,
    /// Who made it, in the host's words (`caller`, `principal`, …).
    #[serde(flatten)]
    pub by: DispatchOptions,
}

/// The clock's anchor when last saved: virtual moment, wall moment, paused.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct SavedClock {
    pub virtual_ms: u64,
    pub wall_ms: u64,
    pub paused: bool,
}

/// What a database holds about its run (its calls are read separately).
#[derive(Debug)]
pub struct Saved {
    pub scenario: Option<String>,
    pub options: PlaygroundOptions,
    pub clock: SavedClock,
    pub calls: u64,
}

pub struct Store {
    db: Database,
    next: u64,
}

impl Store {
    /// Opens (or creates) the database in `dir`, creating `dir` if need be.
    pub fn open(dir: &Path) -> Result<Store, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the data directory {}: {e}", dir.display()))?;
        let path = dir.join(FILE_NAME);
        let db = Database::create(&path).map_err(|e| match e {
            redb::DatabaseError::DatabaseAlreadyOpen => format!(
                "{} is in use by another queuelab; give each server its own --data",
                path.display()
            ),
            e => format!("cannot open {}: {e}", path.display()),
        })?;
        let mut store = Store { db, next: 0 };
        store.next =
            store.read(|tx| Ok(tx.open_table(CALLS).map_or(0, |t| t.len().unwrap_or(0))))?;
        Ok(store)
    }

    /// The run this database holds, or `None` for a new one.
    pub fn saved(&self) -> Result<Option<Saved>, String> {
        self.read(|tx| {
            let Ok(meta) = tx.open_table(META) else {
                return Ok(None);
            };
            let text = |key: &str| -> Result<Option<String>, String> {
                Ok(meta.get(key).map_err(db)?.map(|v| v.value().to_string()))
            };
            let Some(options) = text("options")? else {
                return Ok(None);
            };
            let clock = text("clock")?.unwrap_or_default();
            Ok(Some(Saved {
                scenario: text("scenario")?,
                options: serde_json::from_str(&options).map_err(corrupt)?,
                clock: serde_json::from_str(&clock).map_err(corrupt)?,
                calls: self.next,
            }))
        })
    }

    /// Records a new run's scenario and options (before any call).
    pub fn begin(
        &mut self,
        scenario: Option<&str>,
        options: &PlaygroundOptions,
        clock: SavedClock,
    ) -> Result<(), String> {
        let options = serde_json::to_string(options).map_err(|e| e.to_string())?;
        self.write(|tx| {
            let mut meta = tx.open_table(META).map_err(db)?;
            if let Some(text) = scenario {
                meta.insert("scenario", text).map_err(db)?;
            }
            meta.insert("options", options.as_str()).map_err(db)?;
            write_clock(&mut meta, clock)
        })
    }

    /// Each stored call, in the order they were made.
    pub fn each_call(
        &self,
        mut f: impl FnMut(StoredCall) -> Result<(), String>,
    ) -> Result<(), String> {
        self.read(|tx| {
            let Ok(calls) = tx.open_table(CALLS) else {
                return Ok(());
            };
            for entry in calls.iter().map_err(db)? {
                let (_, text) = entry.map_err(db)?;
                f(serde_json::from_str(text.value()).map_err(corrupt)?)?;
            }
            Ok(())
        })
    }

    /// Appends `calls` and saves the clock, in one durable transaction.
    pub fn save(&mut self, calls: &[StoredCall], clock: SavedClock) -> Result<(), String> {
        let mut next = self.next;
        self.write(|tx| {
            let mut table = tx.open_table(CALLS).map_err(db)?;
            for call in calls {
                let text = serde_json::to_string(call).map_err(|e| e.to_string())?;
                table.insert(next, text.as_str()).map_err(db)?;
                next += 1;
            }
            write_clock(&mut tx.open_table(META).map_err(db)?, clock)
        })?;
        self.next = next;
        Ok(())
    }

    fn read<T>(
        &self,
        f: impl FnOnce(&redb::ReadTransaction) -> Result<T, String>,
    ) -> Result<T, String> {
        f(&self.db.begin_read().map_err(db)?)
    }

    fn write(
        &mut self,
        f: impl FnOnce(&redb::WriteTransaction) -> Result<(), String>,
    ) -> Result<(), String> {
        let tx = self.db.begin_write().map_err(db)?;
        f(&tx)?;
        tx.commit().map_err(db)
    }
}

fn write_clock(meta: &mut redb::Table<&str, &str>, clock: SavedClock) -> Result<(), String> {
    let text = serde_json::to_string(&clock).map_err(|e| e.to_string())?;
    meta.insert("clock", text.as_str()).map_err(db)?;
    Ok(())
}

fn db(e: impl std::fmt::Display) -> String {
    format!("the database: {e}")
}

fn corrupt(e: serde_json::Error) -> String {
    format!("the database holds a record queuelab cannot read: {e}")
}
