/// The large-objects built-in, documented in docs/architectures.md. Not part of
/// `reproduce` (see there): `grouper-sim run large-files` writes it.
extension BuiltinScenarios {
    static let largeFiles: [(name: String, summary: String, text: String)] = [
        ("large-files", "5 devices share 1–500 MB photos and videos in 1 MiB chunks: Grouper vs central, plain vs encrypted device stores", largeFilesText),
    ]

    static let largeFilesText = """
    {
      "format": 1,
      "name": "large-files",
      "description": "Five devices share photos and videos of 1 to 500 MB (uniform), each device one every 6 h on average for two days, sent in 1 MiB chunks (64 real bytes per chunk for Grouper, the rest costed). Devices churn (online 10 h, offline 4 h on average) until the quiet last 12 h. Swept: the architecture (Grouper f(2,3,3) with a 1 d TTL, or one central server) and the devices' store at rest (plain, or AES-256-CBC with a PBKDF2 key per device start).",
      "seed": 31,
      "replications": 2,
      "duration": "2d",
      "warmup": "1h",
      "group": {"devices": 5, "k": 2, "n": 3, "s": 3, "ttl": "1d"},
      "workload": {
        "update": {"every": {"dist": "exponential", "mean": "6h"}},
        "object_size": {"dist": "uniform", "min": 1000000, "max": 500000000},
        "chunking": {"chunk_size": 1048576}
      },
      "device_store": {"at_rest": "plain", "kdf_iterations": 10000},
      "churn": {"online": {"dist": "exponential", "mean": "10h"}, "offline": {"dist": "exponential", "mean": "4h"}},
      "sweep": [{"path": "architecture", "values": ["grouper", "central"]},
                {"path": "device_store.at_rest", "values": ["plain", "aes256-cbc"]}],
      "settle": "12h",
      "require": ["no-phantom", "ttl"],
      "metrics": ["converged", "delivery_ratio", "delivery_latency", "delivery_latency_p95", "bytes_uploaded",
                  "bytes_downloaded", "requests", "messages_uploaded", "bytes_at_rest_mean", "exposure_seconds_mean",
                  "device_plaintext_bytes"]
    }

    """
}
