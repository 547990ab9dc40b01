# Varnish for `make bench`: cache hits in front of the nginx static server ($-placeholders are
# filled in by bench/bench.py).
vcl 4.1;

backend origin {
    .host = "127.0.0.1";
    .port = "${static_port}";
}

sub vcl_backend_response {
    set beresp.ttl = 1d;
}
