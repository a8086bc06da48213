# EnergyLab chart: CO2 by mode per hour of day (alter-eco-2020, speed-bands classifier): mean per day over 2 days; under each hour, the days behind it
# Edit and run with: gnuplot profile-co2-by-hour-of-day-alter-eco-2020.gp
set encoding utf8
set title 'CO2 by mode per hour of day (alter-eco-2020, speed-bands classifier): mean per'."\n".'day over 2 days; under each hour, the days behind it' noenhanced
set xlabel 'hour of day (local, Europe/London)' noenhanced
set ylabel 'CO2 (kg per day)' noenhanced
set key above box noenhanced
set grid lc rgb '#dddddd'
set border 3
set tics nomirror
set style line 1 lc rgb '#1b6ca8' pt 7 ps 0.7 lw 2
set style line 2 lc rgb '#d1495b' pt 5 ps 0.7 lw 2
set style line 3 lc rgb '#2e933c' pt 9 ps 0.8 lw 2
set style line 4 lc rgb '#edae49' pt 11 ps 0.8 lw 2
set style line 5 lc rgb '#66468c' pt 13 ps 0.8 lw 2
set style line 6 lc rgb '#00798c' pt 15 ps 0.8 lw 2
set style line 7 lc rgb '#8c510a' pt 4 ps 0.8 lw 2
set style line 10 lc rgb '#333333' dt 1 lw 1.5
set style line 11 lc rgb '#777777' dt 2 lw 1.5
set style line 12 lc rgb '#b2182b' dt 4 lw 1.5
set style line 13 lc rgb '#2166ac' dt 5 lw 1.5
set style line 14 lc rgb '#8c510a' dt 3 lw 2
set style line 15 lc rgb '#66468c' dt 6 lw 2
set style line 20 lc rgb '#999999' dt 3 lw 1.5
set style line 40 lc rgb '#2e933c' pt 7 ps 0.7 lw 2
set style line 41 lc rgb '#66468c' pt 7 ps 0.7 lw 2
set style line 42 lc rgb '#edae49' pt 7 ps 0.7 lw 2
set style line 43 lc rgb '#1b6ca8' pt 7 ps 0.7 lw 2
set style line 44 lc rgb '#d1495b' pt 7 ps 0.7 lw 2
set style line 45 lc rgb '#00798c' pt 7 ps 0.7 lw 2
set style line 46 lc rgb '#333333' pt 7 ps 0.7 lw 2
set style line 47 lc rgb '#8c510a' pt 7 ps 0.7 lw 2
set style line 48 lc rgb '#a6a6a6' pt 7 ps 0.7 lw 2
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.75
set xtics noenhanced
set xlabel offset 0,-1
set yrange [0:*]
set bmargin 5
set terminal pngcairo size 900,560 enhanced font 'Sans,11'
set output 'profile-co2-by-hour-of-day-alter-eco-2020.png'
plot 'profile-co2-by-hour-of-day-alter-eco-2020.dat' using 2:xtic(1) ls 44 title 'car', \
     '' using 4 ls 45 title 'train'
set terminal svg size 900,560 dynamic font 'Sans,11'
set output 'profile-co2-by-hour-of-day-alter-eco-2020.svg'
replot
unset output
