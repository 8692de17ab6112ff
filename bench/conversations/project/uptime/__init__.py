"""uptime: incident windows, maintenance, SLA credits, alerts and the monthly report."""
