#!/bin/sh
# The Pi box's stand-in for what a Pi's kernel shows and a container does not, made again
# at every boot of the box (pibox-pi-hardware.service, before riskboard.service): the Pi
# model in the device tree (install.sh and riskboard read it; /proc/device-tree links here
# on a Pi) and a GPIO chip node in the gpio group. The model is /usr/local/lib/pibox/model.
set -e
model=$(cat /usr/local/lib/pibox/model)
mountpoint -q /sys/firmware || mount -t tmpfs -o mode=0755 pibox-devicetree /sys/firmware
mkdir -p /sys/firmware/devicetree/base
printf '%s\0' "$model" >/sys/firmware/devicetree/base/model
[ -e /dev/gpiochip0 ] || touch /dev/gpiochip0
chgrp gpio /dev/gpiochip0
chmod 0660 /dev/gpiochip0
