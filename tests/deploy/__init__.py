"""Tests of deploy/: install.sh against a temporary root, the systemd unit, the udev rule."""
