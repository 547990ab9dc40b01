# frozen_string_literal: true

# Stands in for the fugit gem (not packaged by Debian), which Frankfurter's Provider requires for
# publishes_missed: with no publish_schedule on a provider that method returns nil before using it.
module Fugit
  module Cron
    def self.parse(_schedule)
      raise NotImplementedError, "fugit is stubbed: no publish_schedule in the sample's providers"
    end
  end
end
