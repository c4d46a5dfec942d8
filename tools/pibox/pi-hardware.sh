#!/bin/sh
# The Pi box's stand-in for what a Pi's kernel shows and a container does not, made again
# at every boot of the box (pibox-pi-hardware.service, before riskboard.service): the Pi
# model in the device tree (install.sh and riskboard read it; /proc/device-tree links here
# on a Pi) and the device nodes the LEDs and buttons open, with the owners and modes
# Raspberry Pi OS's udev rules give them: /dev/gpiochip0 and /dev/gpiomem (root:gpio 0660)
# always, /dev/spidev0.0 (root:spi 0660) only when config.txt turns SPI on, as the kernel
# makes it at boot. They are placeholders: the device shim (tools/pibox/shim, preloaded into
# riskboard.service by pibox-gpio.conf) answers for them, after the kernel has checked the
# node's permissions for the service's user. The model is /usr/local/lib/pibox/model.
set -e
model=$(cat /usr/local/lib/pibox/model)
mountpoint -q /sys/firmware || mount -t tmpfs -o mode=0755 pibox-devicetree /sys/firmware
mkdir -p /sys/firmware/devicetree/base
printf '%s\0' "$model" >/sys/firmware/devicetree/base/model
node() { # node PATH GROUP
    [ -e "$1" ] || touch "$1"
    chgrp "$2" "$1"
    chmod 0660 "$1"
}
node /dev/gpiochip0 gpio
node /dev/gpiomem gpio
# The firmware reads config.txt's last dtparam=spi line (in any section; the box is a Pi 4).
spi=$(sed -n 's/^[[:space:]]*dtparam=spi=\([a-z]*\).*/\1/p' /boot/firmware/config.txt 2>/dev/null | tail -n 1)
if [ "$spi" = on ]; then
    node /dev/spidev0.0 spi
else
    rm -f /dev/spidev0.0
fi
