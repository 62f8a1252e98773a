//! Which gateway shards a process runs, so that several processes share the servers.

/// Gateway shards `first..=last` of `total`: several processes, each with its own range, share
/// the servers between them (Discord sends a server's events to shard `(id >> 22) % total`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardRange {
    /// First shard run here.
    pub first: u32,
    /// Last shard run here (inclusive).
    pub last: u32,
    /// Shards across all processes.
    pub total: u32,
}

impl ShardRange {
    /// The shard that receives the events of `guild_id` (direct messages go to shard 0).
    pub fn shard_of(guild_id: Option<u64>, total: u32) -> u32 {
        guild_id.map_or(0, |g| ((g >> 22) % u64::from(total.max(1))) as u32)
    }

    /// Whether the games of `guild_id` are for a process running `shards` to answer (`None`:
    /// all servers are its own).
    pub(super) fn runs(shards: Option<ShardRange>, guild_id: Option<u64>) -> bool {
        shards.is_none_or(|r| (r.first..=r.last).contains(&ShardRange::shard_of(guild_id, r.total)))
    }
}

/// A shard range written `FIRST-LAST/TOTAL` (or `N/TOTAL` for one shard) is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid shard range {0:?}: expected FIRST-LAST/TOTAL, e.g. 0-1/4, with FIRST <= LAST < TOTAL")]
pub struct BadShardRange(pub String);

impl std::str::FromStr for ShardRange {
    type Err = BadShardRange;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadShardRange(s.to_string());
        let (range, total) = s.trim().split_once('/').ok_or_else(bad)?;
        let (first, last) = range.split_once('-').unwrap_or((range, range));
        let parse = |t: &str| t.trim().parse::<u32>().map_err(|_| bad());
        let r = ShardRange { first: parse(first)?, last: parse(last)?, total: parse(total)? };
        if r.first > r.last || r.last >= r.total {
            return Err(bad());
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_ranges_parse_and_servers_map_to_shards() {
        assert_eq!("0-1/4".parse(), Ok(ShardRange { first: 0, last: 1, total: 4 }));
        assert_eq!(" 3/4 ".parse(), Ok(ShardRange { first: 3, last: 3, total: 4 }));
        for bad in ["", "4/4", "2-1/4", "0-4/4", "a-b/c", "1-2", "0-1/0"] {
            assert!(bad.parse::<ShardRange>().is_err(), "{bad:?}");
        }
        // Discord's formula: the timestamp part of the snowflake, modulo the shard count.
        assert_eq!(ShardRange::shard_of(Some(1 << 22), 2), 1);
        assert_eq!(ShardRange::shard_of(Some(2 << 22 | 12345), 2), 0);
        assert_eq!(ShardRange::shard_of(None, 8), 0);
    }
}
