package io.memloop.bench.ops;

import java.util.List;

/**
 * The catalogue of ops tasks of {@link RecurringTasksEnvironment}.
 *
 * <p>Twin phrasings were chosen to be close but below the engine's intent-merge threshold (0.9).
 * Measured with all-MiniLM-L6-v2 over the whole catalogue: twins 0.44–0.89 cosine, median 0.74;
 * one template with two subjects (same phrasing) 0.40–0.95, median 0.76, 3% of pairs ≥ 0.9. One-word
 * swaps ("ascending"/"descending", "pause"/"re-enable") measure 0.90–0.99 and would put both twins
 * in one intent group, whose memories the engine ranks with one shared similarity and a
 * query-independent Q, so no strategy could tell those twins apart. Five procedures per template
 * make a blind guess right one time in five.
 */
final class OpsTemplates {
  private OpsTemplates() {}

  static final List<OpsTemplate> ALL =
      List.of(
          new OpsTemplate(
              "restart",
              List.of(
                  "Restart the {x} service in the staging cluster after a config change.",
                  "Restart the {x} service on the production fleet after a config change.",
                  "Restart the {x} service on a developer laptop after a config change."),
              List.of("payment", "search", "checkout", "billing", "inventory", "notification", "login", "shipping"),
              List.of(
                  "kubectl rollout restart with maxUnavailable=1",
                  "drain the node pool, then restart the pods",
                  "scale the deployment to zero and back up",
                  "restart behind a maintenance page",
                  "systemctl restart on each host in turn")),
          new OpsTemplate(
              "logging",
              List.of(
                  "Turn on verbose request logging for the {x} API gateway.",
                  "Turn off verbose request logging for the {x} API gateway to save disk.",
                  "Sample one request in a hundred in the {x} API gateway logs."),
              List.of("checkout", "partner", "mobile", "admin", "public", "merchant"),
              List.of(
                  "set log_level=debug and reload the gateway",
                  "set log_level=warn and reload the gateway",
                  "set access_log off in the gateway config",
                  "set sampling_rate=0.01 in the tracing block",
                  "route logs to the sidecar with a 64k buffer")),
          new OpsTemplate(
              "audit",
              List.of(
                  "List the {x} audit log entries with the oldest first.",
                  "Show the most recent {x} audit log entries at the top of the report.",
                  "List only the failed {x} audit log entries from today."),
              List.of("billing", "identity", "storage", "payroll", "procurement", "support"),
              List.of(
                  "ORDER BY ts ASC",
                  "ORDER BY ts DESC",
                  "WHERE status = 'failed' AND ts >= current_date",
                  "ORDER BY ts DESC LIMIT 100",
                  "GROUP BY actor ORDER BY count(*) DESC")),
          new OpsTemplate(
              "tls",
              List.of(
                  "Rotate the TLS certificate on the public {x} load balancer before it expires.",
                  "Rotate the TLS certificate on the internal {x} load balancer used by batch jobs.",
                  "Revoke the leaked TLS certificate on the {x} load balancer right away."),
              List.of("search", "web", "api", "mail", "vpn", "cdn"),
              List.of(
                  "certbot renew --force-renewal, then reload nginx",
                  "issue a new certificate from the internal CA and hot-swap it",
                  "upload the certificate to the cloud certificate manager and switch the listener",
                  "revoke through the CA API and purge the OCSP cache",
                  "rotate the secret in the vault and restart the proxy")),
          new OpsTemplate(
              "scale",
              List.of(
                  "Scale the {x} workers up for the evening traffic peak.",
                  "Scale the {x} workers back down once the evening peak is over.",
                  "Autoscale the {x} workers on queue length instead of CPU."),
              List.of("image-resizer", "video-transcoder", "email-sender", "report-builder", "thumbnail", "ingest"),
              List.of(
                  "kubectl scale --replicas=20",
                  "kubectl scale --replicas=4",
                  "set the HPA metric to queue depth with a target of 100",
                  "raise the HPA maxReplicas to 30",
                  "add a scheduled scaling rule for 18:00-23:00")),
          new OpsTemplate(
              "backup",
              List.of(
                  "Back up the {x} database to cold storage every night.",
                  "Restore the {x} database from last night's cold-storage backup.",
                  "Copy the {x} database to a new region as a warm standby."),
              List.of("orders", "customers", "catalog", "events", "inventory", "ledger"),
              List.of(
                  "pg_dump --format=custom to the archive bucket",
                  "pg_restore --clean from the archive bucket",
                  "set up streaming replication to the standby region",
                  "take a volume snapshot and copy it across regions",
                  "pg_basebackup with WAL archiving")),
          new OpsTemplate(
              "access",
              List.of(
                  "Grant read-only access to the {x} database for the analytics team.",
                  "Revoke write access to the {x} database from the analytics team.",
                  "Give the analytics team temporary admin rights on the {x} database."),
              List.of("ledger", "warehouse", "crm", "telemetry", "marketing", "fraud"),
              List.of(
                  "GRANT SELECT ON ALL TABLES to the analytics role",
                  "REVOKE INSERT, UPDATE, DELETE from the analytics role",
                  "add the analytics group to the admin role with a 24h expiry",
                  "create a replica user with SELECT only",
                  "file an access request that needs manager approval")),
          new OpsTemplate(
              "cron",
              List.of(
                  "Pause the nightly {x} cron job while the data migration runs.",
                  "Run the {x} cron job once by hand right now.",
                  "Move the nightly {x} cron job to run every hour."),
              List.of("invoice-export", "search-reindex", "report-mailer", "cleanup", "sitemap", "billing-sync"),
              List.of(
                  "kubectl patch cronjob with suspend=true",
                  "kubectl create job --from=cronjob",
                  "change the schedule to 0 * * * *",
                  "comment out the crontab line",
                  "delete the cronjob and recreate it from git")),
          new OpsTemplate(
              "cache",
              List.of(
                  "Flush the {x} Redis cache after a schema migration.",
                  "Warm up the {x} Redis cache before the marketing launch.",
                  "Shrink the memory limit of the {x} Redis cache."),
              List.of("session", "product", "pricing", "feed", "profile", "token"),
              List.of(
                  "redis-cli FLUSHDB on the primary",
                  "run the cache-warmer job with the top 10k keys",
                  "CONFIG SET maxmemory 2gb",
                  "delete keys by prefix with SCAN and UNLINK",
                  "fail over to the replica and flush the old primary")),
          new OpsTemplate(
              "flag",
              List.of(
                  "Enable the {x} feature flag for beta users only.",
                  "Switch on the {x} feature flag for every customer in Europe.",
                  "Roll the {x} feature flag back to off for everyone after the incident."),
              List.of(
                  "dark-mode", "new-checkout", "smart-search", "one-click-refund", "beta-dashboard", "ai-summary"),
              List.of(
                  "target the beta segment in the flag service",
                  "set the rollout to 100% with region=eu",
                  "set the kill switch and the default to false",
                  "ramp the rollout by 10% per hour",
                  "override the flag in the config map and redeploy")),
          new OpsTemplate(
              "disk",
              List.of(
                  "Free disk space on the {x} build agents when the volume is full.",
                  "Grow the disk on the {x} build agents when the volume is full.",
                  "Alert the on-call engineer before the disk on the {x} build agents fills up."),
              List.of("ci", "android", "ios", "docker", "nightly", "release"),
              List.of(
                  "docker system prune -af",
                  "resize the volume and run resize2fs",
                  "add a disk-usage alert at 85%",
                  "clean the workspace and the Gradle cache",
                  "move the build cache to its own volume")),
          new OpsTemplate(
              "dns",
              List.of(
                  "Point the {x} DNS record at the new load balancer with a short TTL.",
                  "Point the {x} DNS record back at the old load balancer after the failed cutover.",
                  "Lower the TTL of the {x} DNS record a day before the migration."),
              List.of("status-page", "api", "docs", "shop", "blog", "auth"),
              List.of(
                  "update the A record to the new IP with TTL 60",
                  "revert the CNAME to the old load balancer",
                  "set the TTL to 60 and keep the target",
                  "add a weighted record with 10% on the new target",
                  "switch the alias record in the cloud DNS console")));
}
