# frozen_string_literal: true

# Asks a loaded Frankfurter (in-process, through Rack::MockRequest on its own Rack app) every query of a query file
# and writes what it answered: OUT_DIR/manifest.json ([{path, accept, status, content_type, body_file}]) and one body
# file a query under OUT_DIR/bodies/, named by the query. Run under faketime, so Frankfurter's Date.today is the capture's "today".
#
# Usage: ruby capture.rb FRANKFURTER_DIR DB_FILE QUERIES_FILE OUT_DIR

require "digest"
require "fileutils"
require "json"

frankfurter, db_file, queries_file, out_dir = ARGV
abort "usage: capture.rb FRANKFURTER_DIR DB_FILE QUERIES_FILE OUT_DIR" unless out_dir

ENV["DATABASE_URL"] = "sqlite://#{File.expand_path(db_file)}"
ENV["APP_ENV"] = "golden" # no request logging; Frankfurter reads nothing else from it when DATABASE_URL is set
$LOAD_PATH.unshift(File.expand_path("shim", __dir__))
Dir.chdir(frankfurter)
require File.join(frankfurter, "boot")
require "rack"
require "rack/mock"
require "app"

app = App.freeze.app
queries = File.readlines(queries_file, chomp: true).reject { |l| l.strip.empty? || l.start_with?("#") }

FileUtils.rm_rf(File.join(out_dir, "bodies"))
FileUtils.mkdir_p(File.join(out_dir, "bodies"))

def slug(path, accept)
  s = path.sub(%r{\A/}, "").gsub(/[^A-Za-z0-9.=,-]+/, "_").gsub(/_+/, "_").sub(/_\z/, "")
  s = "#{s}_ndjson" if accept.include?("ndjson")
  s[0, 90]
end

def extension(content_type)
  case content_type.to_s
  when %r{\Aapplication/json} then "json"
  when %r{\Aapplication/x-ndjson} then "ndjson"
  when %r{\Atext/csv} then "csv"
  else "txt"
  end
end

manifest = queries.map do |line|
  path, accept = line.split(" ", 2)
  accept ||= "application/json"
  response = Rack::MockRequest.new(app).get(path, "HTTP_ACCEPT" => accept)
  content_type = response.headers["content-type"]
  # Named by the query (and a hash of it, so names stay unique and stable when queries are added).
  body_file = format("bodies/%s-%s.%s", slug(path, accept), Digest::SHA256.hexdigest("#{path} #{accept}")[0, 6],
                     extension(content_type))
  File.binwrite(File.join(out_dir, body_file), response.body)
  { path:, accept:, status: response.status, content_type:, body_file: }
end

File.write(File.join(out_dir, "manifest.json"), "#{JSON.pretty_generate(manifest)}\n")
counts = manifest.group_by { |m| m[:status] }.transform_values(&:size).sort.map { |s, n| "#{s}: #{n}" }.join(", ")
warn "#{manifest.size} answers written to #{out_dir} (#{counts})"
