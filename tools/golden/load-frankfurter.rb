# frozen_string_literal: true

# Loads the committed multi-provider sample (Examples/upstream/frankfurter/) into a Frankfurter checkout's SQLite
# database through Frankfurter's own ingest: its migrations, its Provider model seeded from providers.json, and
# Provider#backfill for each provider with the adapter replaced by one that yields the sample's rows in the record
# shape Frankfurter's adapters yield ({date: Date, base:, quote:, rate: Float}). Backfill validates, normalizes,
# inserts, refreshes the rollups, the currency and coverage summaries and the materialized blend, as it does for a
# fetched batch. Then the blend and the rollups are rebuilt from scratch with Frankfurter's own rake tasks (run by
# capture-frankfurter.sh). Nothing of Frankfurter's code is copied here; this file only drives it.
#
# Usage (run under faketime, so Frankfurter's Date.today is the capture's "today"):
#   ruby load-frankfurter.rb FRANKFURTER_DIR DATA_DIR DB_FILE [CSV ...]
# Each CSV (default DATA_DIR/rows.csv) is one fetch: one backfill per provider it has rows of. Run again on the same
# database with late.csv, it is a later fetch that brings the rows the upstream learnt since.

require "csv"
require "date"
require "json"

frankfurter, data_dir, db_file, *csvs = ARGV
abort "usage: load-frankfurter.rb FRANKFURTER_DIR DATA_DIR DB_FILE [CSV ...]" unless db_file

ENV["DATABASE_URL"] = "sqlite://#{File.expand_path(db_file)}"
# fugit is only used by Provider#publishes_missed, which returns before it when a provider has no publish_schedule
# (the sample's providers.json has none); a stub keeps the gem out.
$LOAD_PATH.unshift(File.expand_path("shim", __dir__))
Dir.chdir(frankfurter)
require File.join(frankfurter, "boot")
require "db"

Sequel.extension(:migration)
Sequel::IntegerMigrator.new(DB, File.join(frankfurter, "db/migrate")).run

# Provider seeds in Frankfurter's seed shape, from providers.json.
seeds = JSON.parse(File.read(File.join(data_dir, "providers.json")))
if DB[:providers].empty?
  columns = DB.schema(:providers).map { |c| c.first.to_s }
  DB[:providers].multi_insert(seeds.map { |s| s.slice(*columns) })
end

require "provider"
require "blended_rate"

def read_rows(path)
  CSV.read(path, headers: true).map do |row|
    { provider: row["provider"], date: Date.parse(row["date"]), base: row["base"], quote: row["quote"],
      rate: Float(row["rate"]), }
  end
end

# The adapter a backfill asks for: it yields the batch it was given, once.
class SampleFeed
  def initialize(records)
    @records = records
  end

  def fetch_each(after: nil)
    yield @records.map(&:dup) unless @records.empty?
  end
end

class Provider
  class << self
    attr_accessor :sample_batches
  end

  def adapter
    SampleFeed.new(Provider.sample_batches.fetch(key, []))
  end
end

csvs = [File.join(data_dir, "rows.csv")] if csvs.empty?
batches = csvs.map { |path| read_rows(path) }
batches.each_with_index do |rows, i|
  grouped = rows.group_by { |r| r[:provider] }
  unknown = grouped.keys - Provider.map(&:key)
  abort "rows of unknown providers: #{unknown.join(", ")}" if unknown.any?

  Provider.sample_batches = grouped.transform_values { |rs| rs.map { |r| r.except(:provider) } }
  before = DB[:rates].count
  grouped.keys.sort.each { |key| Provider[key].backfill }
  warn "#{File.basename(csvs[i])}: #{rows.size} rows offered, #{DB[:rates].count - before} inserted"
end

warn "rates #{DB[:rates].count}, weekly #{DB[:weekly_rates].count}, monthly #{DB[:monthly_rates].count}, " \
     "currencies #{DB[:currencies].count}, coverages #{DB[:currency_coverages].count}, " \
     "blended #{DB[:blended_rates].count}, today #{Date.today}"
